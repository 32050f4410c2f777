/** The PCB family's tools (gerber-to-svg to plot layers, pcb-stackup-core to stack them; plain JavaScript, no WASM). */
import type { ToolEntry } from "../registry";
import { manifest as gerberToSvg } from "./gerber-to-svg/manifest";
import { manifest as info } from "./info/manifest";
import { manifest as renderBoard } from "./render-board/manifest";

/** One entry per tool folder. */
export const pcbTools: ToolEntry[] = [
  { manifest: gerberToSvg, load: () => import("./gerber-to-svg/run") },
  { manifest: renderBoard, load: () => import("./render-board/run") },
  { manifest: info, load: () => import("./info/run") },
];
