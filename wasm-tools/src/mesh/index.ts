/** The mesh family's tools (three.js's STL, OBJ, PLY and glTF loaders, an own 3MF reader; the shared mesh writers). */
import type { ToolEntry } from "../registry";
import { manifest as convert } from "./convert/manifest";
import { manifest as info } from "./info/manifest";

/** One entry per tool folder. */
export const meshTools: ToolEntry[] = [
  { manifest: info, load: () => import("./info/run") },
  { manifest: convert, load: () => import("./convert/run") },
];
