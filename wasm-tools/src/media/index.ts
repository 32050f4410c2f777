/** The media family's tools (@ffmpeg/core WASM, one fresh instance per job in a disposable job worker). */
import type { ToolEntry } from "../registry";
import { manifest as thumbnail } from "./thumbnail/manifest";
import { manifest as transcode } from "./transcode/manifest";

/** One entry per tool folder. */
export const mediaTools: ToolEntry[] = [
  { manifest: transcode, load: () => import("./transcode/run") },
  { manifest: thumbnail, load: () => import("./thumbnail/run") },
];
