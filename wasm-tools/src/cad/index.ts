/** The CAD family's tools (occt-import-js: OpenCascade's STEP, IGES and BREP readers; own GLB/STL/OBJ writers). */
import type { ToolEntry } from "../registry";
import { manifest as convert } from "./convert/manifest";
import { manifest as info } from "./info/manifest";

/** One entry per tool folder. */
export const cadTools: ToolEntry[] = [
  { manifest: convert, load: () => import("./convert/run") },
  { manifest: info, load: () => import("./info/run") },
];
