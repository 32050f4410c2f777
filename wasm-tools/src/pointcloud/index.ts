/** The point-cloud family's tools (own LAS reader/writer, laz-perf for LAZ decoding). */
import type { ToolEntry } from "../registry";
import { manifest as convert } from "./convert/manifest";
import { manifest as decimate } from "./decimate/manifest";
import { manifest as info } from "./info/manifest";
import { manifest as lazToLas } from "./laz-to-las/manifest";

/** One entry per tool folder. */
export const pointcloudTools: ToolEntry[] = [
  { manifest: info, load: () => import("./info/run") },
  { manifest: lazToLas, load: () => import("./laz-to-las/run") },
  { manifest: decimate, load: () => import("./decimate/run") },
  { manifest: convert, load: () => import("./convert/run") },
];
