/**
 * The node registry, as data: every node kind a graph may use, the op nodes generated from the
 * tool registry. Validation, the catalog and the engine look kinds up here; nothing else
 * switches on a node's type. Start-up fails loudly on a duplicate or malformed type.
 */
import { checkParams, TOOL_ENTRIES } from "@vektor/wasm-tools";
import type { CatalogNode } from "@vektor/shared/schemas/workflow";
import type { KindLookup, SemanticKind } from "@vektor/shared/workflows/registry";
import { logicApproval } from "./logic-approval";
import { logicFilter } from "./logic-filter";
import { logicMerge } from "./logic-merge";
import { opNode } from "./op";
import { opWorkflow } from "./op-workflow";
import { sinkDownload } from "./sink-download";
import { sinkRename } from "./sink-rename";
import { sinkZip } from "./sink-zip";
import { sourceUpload } from "./source-upload";
import { triggerManual, triggerSchedule, triggerWebhook } from "./trigger";
import type { NodeKind } from "./types";

// Named in shared/ because the format flow there (validation, the web editor) treats them apart.
export { SOURCE_TYPE, SUB_WORKFLOW_TYPE } from "@vektor/shared/workflows/kinds";

const TYPE = /^(trigger|source|op|logic|sink)\.[a-z0-9][a-z0-9.-]*$/;

/** Throws on the first duplicate or malformed type; returns `kinds` so the registry can be declared through it. */
export function checkNodeKinds(kinds: NodeKind[]): NodeKind[] {
  const seen = new Set<string>();
  for (const { description: d, execute } of kinds) {
    const where = `node registry: "${d.type}"`;
    const match = TYPE.exec(d.type);
    if (!match) throw new Error(`${where} is not <category>.<name>`);
    if (match[1] !== d.category) throw new Error(`${where} is in category "${d.category}" but its type says "${match[1]}"`);
    if (seen.has(d.type)) throw new Error(`${where} is registered twice`);
    seen.add(d.type);
    if (typeof execute !== "function") throw new Error(`${where} has no execute()`);
    if (d.params?.type !== "object") throw new Error(`${where} params must be a TypeBox Type.Object`);
  }
  return kinds;
}

/** Every node kind, in catalog order. */
export const NODE_KINDS: readonly NodeKind[] = checkNodeKinds([
  triggerManual,
  triggerWebhook,
  triggerSchedule,
  sourceUpload,
  ...TOOL_ENTRIES.map(opNode),
  opWorkflow,
  logicFilter,
  logicMerge,
  logicApproval,
  sinkDownload,
  sinkZip,
  sinkRename,
]);

const byType = new Map(NODE_KINDS.map((kind) => [kind.description.type, kind]));

/** The kind of a node type, or undefined for a type no one registered. */
export function getNodeKind(type: string): NodeKind | undefined {
  return byType.get(type);
}

/** What GET /api/workflows/catalog lists: every node kind, as plain data. */
export function catalog(): CatalogNode[] {
  return NODE_KINDS.map(({ description: d }) => ({
    type: d.type,
    category: d.category,
    title: d.title,
    description: d.description,
    params: d.params,
    io: {
      accepts: d.io.accepts === "any" ? "any" : [...d.io.accepts],
      produces: d.io.produces === "inputs" ? "inputs" : [...d.io.produces],
      ...(d.io.minInputs !== undefined ? { minInputs: d.io.minInputs, maxInputs: d.io.maxInputs ?? d.io.minInputs } : {}),
    },
    chargedSteps: d.chargedSteps,
  }));
}

const semantic = new Map<string, SemanticKind>(NODE_KINDS.map(({ description: d, producesFor }) => [d.type, { type: d.type, io: d.io, chargedSteps: d.chargedSteps, producesFor }]));

/** The registry as the shared graph semantics asks for it (planning, validation): kinds and their params' schemas. */
export const KINDS: KindLookup = {
  kind: (type) => semantic.get(type),
  checkParams: (type, params) => checkParams(byType.get(type)!.description.params, params),
};
