/** drawing.info: version, units, extents, layers, blocks, layouts and entity counts of a drawing. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { jsonBytes, output, stem } from "../../runtime/context";
import { hex, aciRgb } from "../common/color";
import { boundsOf, flatten } from "../common/flatten";
import { releaseName, unitName, type Entity, type Vec } from "../common/model";
import { MAX_ITEMS } from "../common/drawn";
import { readDrawing } from "../common/read";
import type { Params } from "./manifest";

/** Rounded to 1e-6 so float noise does not show in the report. */
const round = (v: number) => Number(v.toFixed(6)) || 0;
const point = (p: Vec) => [round(p.x), round(p.y)];

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** An entity and the ATTRIBs it carries, as separate entities (how DXF lists them). */
const withAttribs = (entities: Entity[]) => entities.flatMap((e) => (e.kind === "insert" ? [e, ...e.attribs] : [e]));

export const run: ToolRun<Params> = async ([input], _params, ctx) => {
  ctx.onProgress(0.05, "reading");
  const drawing = await readDrawing(input);
  ctx.onProgress(0.6, "measuring");
  const items = flatten(drawing, { background: "#ffffff", maxItems: MAX_ITEMS });
  const bounds = boundsOf(items);
  const model = withAttribs(drawing.entities);
  const perLayer = countBy(model, (e) => e.layer);
  const report = {
    format: drawing.format,
    version: drawing.version,
    release: releaseName(drawing.version),
    units: unitName(drawing.insUnits),
    insUnits: drawing.insUnits,
    extents: bounds ? { min: point(bounds.min), max: point(bounds.max) } : null,
    headerExtents: drawing.headerExtents ? { min: point(drawing.headerExtents.min), max: point(drawing.headerExtents.max) } : null,
    entityCount: model.length,
    entityCounts: countBy(model, (e) => e.type),
    layers: drawing.layers.map((l) => ({
      name: l.name,
      color: l.aci,
      rgb: hex(l.rgb ?? aciRgb(l.aci)),
      on: !l.off,
      frozen: l.frozen,
      entityCount: perLayer[l.name] ?? 0,
    })),
    blocks: [...drawing.blocks.values()]
      .filter((b) => !/^\*model_space$/i.test(b.name))
      .map((b) => ({ name: b.name, anonymous: b.name.startsWith("*"), base: point(b.base), entityCount: b.entities.length })),
    layouts: drawing.layouts,
    drawnItems: items.length,
  };
  return [output(`${stem(input.name)}-info.json`, "json", jsonBytes(report))];
};
