/** The BIM family's tools (web-ifc: IFC2X3/IFC4/IFC4X3 parsing and geometry; the shared GLB writer). */
import type { ToolEntry } from "../registry";
import { manifest as ifcInfo } from "./ifc-info/manifest";
import { manifest as ifcProperties } from "./ifc-properties/manifest";
import { manifest as ifcToGlb } from "./ifc-to-glb/manifest";

/** One entry per tool folder. */
export const bimTools: ToolEntry[] = [
  { manifest: ifcToGlb, load: () => import("./ifc-to-glb/run") },
  { manifest: ifcProperties, load: () => import("./ifc-properties/run") },
  { manifest: ifcInfo, load: () => import("./ifc-info/run") },
];
