/**
 * Curves as point runs: arcs, bulges, ellipses and NURBS splines sampled finely enough for
 * a drawing (about 5° a segment, at least 4 a curve), so every output format draws straight
 * segments only.
 */
import type { Vec, Vertex } from "./model";

const STEP = Math.PI / 36;
const TAU = Math.PI * 2;

function segments(sweep: number): number {
  return Math.max(4, Math.ceil(Math.abs(sweep) / STEP));
}

/** Counter-clockwise (or clockwise) sweep from `start` to `end`, in (0, 2π]. */
function sweepOf(start: number, end: number, ccw: boolean): number {
  let sweep = ccw ? end - start : start - end;
  sweep = ((sweep % TAU) + TAU) % TAU;
  return sweep === 0 ? TAU : sweep;
}

export function arcPoints(center: Vec, radius: number, start: number, end: number, ccw = true): Vec[] {
  const sweep = sweepOf(start, end, ccw) * (ccw ? 1 : -1);
  const n = segments(sweep);
  return Array.from({ length: n + 1 }, (_, i) => {
    const a = start + (sweep * i) / n;
    return { x: center.x + radius * Math.cos(a), y: center.y + radius * Math.sin(a) };
  });
}

export function circlePoints(center: Vec, radius: number): Vec[] {
  return arcPoints(center, radius, 0, TAU);
}

/** An ellipse from its centre, major axis end (relative) and minor/major ratio; angles are parametric. */
export function ellipsePoints(center: Vec, major: Vec, ratio: number, start: number, end: number, ccw = true): Vec[] {
  const minor = { x: -major.y * ratio, y: major.x * ratio };
  const sweep = Math.abs(end - start - TAU) < 1e-9 ? TAU : sweepOf(start, end, ccw) * (ccw ? 1 : -1);
  const n = segments(sweep);
  return Array.from({ length: n + 1 }, (_, i) => {
    const t = start + (sweep * i) / n;
    return { x: center.x + major.x * Math.cos(t) + minor.x * Math.sin(t), y: center.y + major.y * Math.cos(t) + minor.y * Math.sin(t) };
  });
}

/** The arc from `a` to `b` whose bulge is tan(θ/4) (positive: counter-clockwise), without `a`. */
export function bulgePoints(a: Vec, b: Vec, bulge: number): Vec[] {
  const chord = Math.hypot(b.x - a.x, b.y - a.y);
  if (!bulge || chord === 0) return [b];
  const theta = 4 * Math.atan(bulge);
  const radius = chord / (2 * Math.sin(Math.abs(theta) / 2));
  // The centre is off the chord's direction by 90° less half the sweep, to the sweep's side.
  const toCenter = Math.atan2(b.y - a.y, b.x - a.x) + Math.sign(theta) * (Math.PI / 2 - Math.abs(theta) / 2);
  const center = { x: a.x + radius * Math.cos(toCenter), y: a.y + radius * Math.sin(toCenter) };
  const start = Math.atan2(a.y - center.y, a.x - center.x);
  const n = segments(theta);
  return Array.from({ length: n }, (_, i) => {
    if (i === n - 1) return b;
    const t = start + (theta * (i + 1)) / n;
    return { x: center.x + radius * Math.cos(t), y: center.y + radius * Math.sin(t) };
  });
}

/** A polyline's vertices with its bulges expanded. */
export function polylinePoints(vertices: Vertex[], closed: boolean): Vec[] {
  if (vertices.length === 0) return [];
  const out: Vec[] = [{ x: vertices[0].x, y: vertices[0].y }];
  const count = closed ? vertices.length : vertices.length - 1;
  for (let i = 0; i < count; i++) {
    const a = vertices[i];
    const b = vertices[(i + 1) % vertices.length];
    out.push(...bulgePoints(a, b, a.bulge));
  }
  return out;
}

/** A NURBS curve by de Boor's algorithm, or its fit points when it has no control points. */
export function splinePoints(degree: number, control: Vec[], knots: number[], weights: number[], fit: Vec[]): Vec[] {
  if (control.length < 2 || knots.length !== control.length + degree + 1) return fit.length >= 2 ? fit : control;
  const lo = knots[degree];
  const hi = knots[knots.length - degree - 1];
  const n = Math.max(8, control.length * 8);
  const out: Vec[] = [];
  for (let i = 0; i <= n; i++) out.push(deBoor(degree, control, knots, weights, lo + ((hi - lo) * i) / n));
  return out;
}

function deBoor(p: number, control: Vec[], knots: number[], weights: number[], t: number): Vec {
  let k = p;
  while (k < control.length - 1 && t >= knots[k + 1]) k++;
  const w = (i: number) => weights[i] ?? 1;
  const d = Array.from({ length: p + 1 }, (_, j) => {
    const c = control[j + k - p];
    const wi = w(j + k - p);
    return { x: c.x * wi, y: c.y * wi, w: wi };
  });
  for (let r = 1; r <= p; r++) {
    for (let j = p; j >= r; j--) {
      const denom = knots[j + 1 + k - r] - knots[j + k - p];
      const alpha = denom === 0 ? 0 : (t - knots[j + k - p]) / denom;
      d[j] = { x: (1 - alpha) * d[j - 1].x + alpha * d[j].x, y: (1 - alpha) * d[j - 1].y + alpha * d[j].y, w: (1 - alpha) * d[j - 1].w + alpha * d[j].w };
    }
  }
  return { x: d[p].x / d[p].w, y: d[p].y / d[p].w };
}
