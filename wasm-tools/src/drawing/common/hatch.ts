/**
 * A hatch's boundary as closed vertex loops, from either boundary form both readers give:
 * polyline paths (vertices with bulges) or edge paths (lines, circular and elliptic arcs,
 * splines). Curved edges become short straight runs: a hatch outline needs no more.
 */
import { arcPoints, ellipsePoints, splinePoints } from "./curves";
import type { Vec, Vertex } from "./model";

export interface HatchEdge {
  type: number; // 1 line, 2 circular arc, 3 elliptic arc, 4 spline
  start?: Vec;
  end?: Vec;
  center?: Vec;
  radius?: number;
  startAngle?: number;
  endAngle?: number;
  isCCW?: boolean;
  lengthOfMinorAxis?: number;
  degree?: number;
  knots?: number[];
  controlPoints?: Vec[];
  weights?: number[];
  fitDatum?: Vec[];
}

export interface HatchPath {
  boundaryPathTypeFlag: number;
  vertices?: (Vec & { bulge?: number })[];
  edges?: HatchEdge[];
}

const POLYLINE_PATH = 2;

export function hatchLoops(paths: HatchPath[] | undefined): Vertex[][] {
  const loops: Vertex[][] = [];
  for (const path of paths ?? []) {
    if (path.boundaryPathTypeFlag & POLYLINE_PATH || path.vertices) {
      loops.push((path.vertices ?? []).map((v) => ({ x: v.x, y: v.y, bulge: v.bulge ?? 0 })));
      continue;
    }
    const points: Vec[] = [];
    for (const edge of path.edges ?? []) points.push(...edgePoints(edge));
    loops.push(points.map((p) => ({ ...p, bulge: 0 })));
  }
  return loops.filter((loop) => loop.length >= 2);
}

function edgePoints(edge: HatchEdge): Vec[] {
  switch (edge.type) {
    case 1:
      return edge.start && edge.end ? [edge.start, edge.end] : [];
    case 2: {
      // Clockwise arcs store their angles mirrored (AutoCAD's convention for hatch edges).
      const ccw = edge.isCCW !== false;
      const [s, e] = ccw ? [edge.startAngle ?? 0, edge.endAngle ?? 0] : [-(edge.startAngle ?? 0), -(edge.endAngle ?? 0)];
      return edge.center ? arcPoints(edge.center, edge.radius ?? 0, s, e, ccw) : [];
    }
    case 3: {
      if (!edge.center || !edge.end) return [];
      const ccw = edge.isCCW !== false;
      const [s, e] = ccw ? [edge.startAngle ?? 0, edge.endAngle ?? 0] : [-(edge.startAngle ?? 0), -(edge.endAngle ?? 0)];
      // Group 40 of an elliptic edge is the minor axis as a fraction of the major one.
      return ellipsePoints(edge.center, edge.end, edge.lengthOfMinorAxis ?? 1, s, e, ccw);
    }
    case 4:
      return splinePoints(edge.degree ?? 3, edge.controlPoints ?? [], edge.knots ?? [], edge.weights ?? [], edge.fitDatum ?? []);
    default:
      return [];
  }
}
