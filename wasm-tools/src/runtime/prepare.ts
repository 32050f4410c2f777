/**
 * Loads what a tool needs before it runs: its run module and its family's engine (the WASM,
 * once per worker). A host calls this before it starts a job's clock, so the cold start of a
 * fresh worker is never charged to the job that happens to come next.
 */
import type { ToolFamily } from "@vektor/shared/tools/manifest";
import { getTool } from "../registry";

/** Each family's engine loader; `null` for a family of plain JavaScript. Typed over every family, so a new one must decide. */
const ENGINES: Record<ToolFamily, (() => Promise<unknown>) | null> = {
  pdf: () => import("../pdf/init").then((m) => m.loadMupdf()),
  cad: () => import("../cad/init").then((m) => m.loadOcct()),
  gis: () => import("../gis/init").then((m) => m.loadGdal()),
  pointcloud: () => import("../pointcloud/init").then((m) => m.loadLazPerf()),
  bim: () => import("../bim/init").then((m) => m.loadIfcApi()),
  media: () => import("../media/init").then((m) => m.loadFfmpegModule()),
  pcb: null,
  drawing: () => import("../drawing/init").then((m) => m.loadLibreDwgModule()),
  mesh: null,
};

/**
 * Loads `slug`'s run module and its family's engine. An unknown slug or an engine that fails to
 * load resolves anyway: the run that follows reports the failure with its own typed error.
 */
export async function prepareTool(slug: string): Promise<void> {
  const entry = getTool(slug);
  if (!entry) return;
  try {
    await entry.load();
    await ENGINES[entry.manifest.family]?.();
  } catch {
    // execute() loads both again and turns the failure into a ToolError the job can show.
  }
}
