/**
 * The built-in templates: ready-made graphs for common jobs, listed to everyone beside their own
 * templates. They are data; a test validates each one against the node registry.
 */
import type { Graph, Template } from "@vektor/shared/schemas/workflow";

/** The prefix of every built-in template id; such templates cannot be deleted. */
export const BUILTIN_PREFIX = "builtin:";

/** When the built-ins were first published (they carry no row, so no creation time of their own). */
const PUBLISHED = "2025-01-01T00:00:00.000Z";

type Step = [id: string, type: string, params?: Record<string, unknown>];

/**
 * A graph from rows of steps and the edges between them; each row is one column of the
 * editor's layout, its steps stacked, so a template opens readable.
 */
function graph(columns: Step[][], edges: [string, string][]): Graph {
  const nodes = columns.flatMap((column, x) =>
    column.map(([id, type, params], y) => ({ id, type, position: { x: 80 + x * 260, y: 80 + y * 140 }, data: { type, ...(params ? { params } : {}) } })),
  );
  return { nodes, edges: edges.map(([source, target]) => ({ id: `${source}-${target}`, source, target })) };
}

function template(slug: string, name: string, description: string, g: Graph): Template {
  return { id: `${BUILTIN_PREFIX}${slug}`, name, description, graphJson: JSON.stringify(g), paramsJson: null, notifySecretSet: false, builtIn: true, createdAt: PUBLISHED };
}

/** Every built-in template, in the order the template list shows them. */
export const BUILTIN_TEMPLATES: readonly Template[] = [
  template(
    "compress-zip-pdfs",
    "Compress and zip PDFs",
    "Makes each PDF smaller and packs the results into one ZIP.",
    graph(
      [[["source", "source.upload"]], [["compress", "op.pdf.compress", { level: 6 }]], [["zip", "sink.zip", { name: "compressed.zip" }]]],
      [["source", "compress"], ["compress", "zip"]],
    ),
  ),
  template(
    "step-to-glb-approval",
    "STEP to GLB with approval",
    "Converts STEP, IGES or BREP models to GLB, then waits for your approval before the files are released.",
    graph(
      [[["source", "source.upload"]], [["convert", "op.cad.convert", { format: "glb" }]], [["approval", "logic.approval"]], [["download", "sink.download"]]],
      [["source", "convert"], ["convert", "approval"], ["approval", "download"]],
    ),
  ),
  template(
    "geojson-to-gpkg-3857",
    "GeoJSON to GeoPackage in EPSG:3857",
    "Reprojects vector data to Web Mercator (EPSG:3857) and writes it as GeoPackage.",
    graph(
      [[["source", "source.upload"]], [["reproject", "op.gis.reproject", { to: 3857 }]], [["convert", "op.gis.convert", { to: "gpkg" }]], [["download", "sink.download"]]],
      [["source", "reproject"], ["reproject", "convert"], ["convert", "download"]],
    ),
  ),
  template(
    "ifc-glb-properties",
    "IFC to GLB and properties",
    "Turns each IFC model into a GLB for viewing and a JSON of its elements' properties, zipped together.",
    graph(
      [[["source", "source.upload"]], [["glb", "op.bim.ifc-to-glb"], ["properties", "op.bim.ifc-properties", { format: "json" }]], [["merge", "logic.merge"]], [["zip", "sink.zip", { name: "ifc-outputs.zip" }]]],
      [["source", "glb"], ["source", "properties"], ["glb", "merge"], ["properties", "merge"], ["merge", "zip"]],
    ),
  ),
  template(
    "laz-to-las-decimated",
    "LAZ to LAS, decimated",
    "Decompresses LAZ point clouds to LAS and keeps one point in ten.",
    graph(
      [[["source", "source.upload"]], [["decompress", "op.pointcloud.laz-to-las"]], [["decimate", "op.pointcloud.decimate", { every: 10 }]], [["download", "sink.download"]]],
      [["source", "decompress"], ["decompress", "decimate"], ["decimate", "download"]],
    ),
  ),
  template(
    "pdf-pages-to-png",
    "PDF pages to dated PNGs",
    "Keeps the PDFs among the uploads, renders every page as a PNG at 150 dpi and names each image with the run's date.",
    graph(
      [[["source", "source.upload"]], [["pdfs", "logic.filter", { formats: ["pdf"] }]], [["render", "op.pdf.render-png", { dpi: 150 }]], [["rename", "sink.rename", { pattern: "{name}-{date}{ext}" }]]],
      [["source", "pdfs"], ["pdfs", "render"], ["render", "rename"]],
    ),
  ),
];

const byId = new Map(BUILTIN_TEMPLATES.map((t) => [t.id, t]));

/** The built-in template with this id, or undefined. */
export function builtinTemplate(id: string): Template | undefined {
  return byId.get(id);
}

/** Whether an id names a built-in template (which cannot be deleted, even when no such built-in exists). */
export function isBuiltinId(id: string): boolean {
  return id.startsWith(BUILTIN_PREFIX);
}
