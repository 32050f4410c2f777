/**
 * The web editor refuses an edge for its formats exactly when this server's validation would
 * report IO_MISMATCH for it, with the same formats in the reason: both run the shared flow
 * (shared/src/workflows/formats.ts), the editor from catalog entries, the server from its node
 * kinds. Random graphs (seeded) over the real catalog, with params that pick formats, data.io
 * narrowing (right and wrong), sub-workflows and unknown kinds.
 */
import { describe, expect, test } from "bun:test";
import type { Graph, GraphNode } from "@vektor/shared/schemas/workflow";
import { canConnect } from "../../../web/src/workflows/model/rules";
import type { EditorGraph } from "../../../web/src/workflows/model/types";
import { catalog } from "./nodes/index";
import { validateGraph } from "./validate";

const CATALOG = catalog();
const TYPES = CATALOG.filter((e) => e.category !== "trigger" && e.type !== "source.upload").map((e) => e.type);

/** A small deterministic PRNG (mulberry32), so a failure can be replayed by its seed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Valid params that may pick a format: a choice param set to one of its values, a filter's formats. */
function paramsFor(type: string, random: () => number): Record<string, unknown> {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  if (type === "logic.filter") return random() < 0.7 ? { formats: [pick(["pdf", "png", "las", "zip", "json"]), pick(["pdf", "glb", "geojson"])].filter((f, i, all) => all.indexOf(f) === i) } : {};
  if (type === "op.workflow") return { workflowId: "wf_elsewhere" };
  const schema = CATALOG.find((e) => e.type === type)!.params as { properties?: Record<string, { anyOf?: { const?: unknown }[] }> };
  const params: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const values = prop.anyOf?.map((o) => o.const).filter((v) => typeof v === "string") ?? [];
    if (values.length && random() < 0.6) params[key] = pick(values);
  }
  return params;
}

/** data.io now and then: a subset of the kind's own formats, or a wrong one. */
function ioFor(type: string, random: () => number): GraphNode["data"]["io"] {
  const io = CATALOG.find((e) => e.type === type)?.io;
  if (!io || random() < 0.75) return undefined;
  const side = random() < 0.5 ? "accepts" : "produces";
  const own = io[side];
  const list = Array.isArray(own) ? own.filter(() => random() < 0.5) : ["pdf", "png"].filter(() => random() < 0.7);
  return { [side]: random() < 0.15 ? ["nonsense"] : list.length ? list : ["zip"] };
}

/** A DAG whose every node but the first (source.upload, maybe after a trigger) has an input from an earlier one. */
function randomGraph(random: () => number): Graph {
  const nodes: GraphNode[] = [];
  const edges: Graph["edges"] = [];
  const add = (type: string) => {
    const id = `n${nodes.length}`;
    const io = ioFor(type, random);
    nodes.push({ id, type, data: { type, params: type.startsWith("op.none") ? {} : paramsFor(type, random), ...(io ? { io } : {}) } });
    return id;
  };
  const trigger = random() < 0.3 ? add("trigger.webhook") : null;
  const source = add("source.upload");
  if (trigger) edges.push({ source: trigger, target: source });
  const count = 2 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    const id = add(random() < 0.05 ? "op.none.unknown" : TYPES[Math.floor(random() * TYPES.length)]);
    const earlier = nodes.slice(trigger ? 1 : 0, -1);
    const inputs = new Set([earlier[Math.floor(random() * earlier.length)].id]);
    if (random() < 0.3) inputs.add(earlier[Math.floor(random() * earlier.length)].id);
    for (const from of inputs) edges.push({ source: from, target: id });
  }
  return { nodes, edges };
}

const asEditor = (g: Graph): EditorGraph => ({
  nodes: g.nodes.map((n, i) => ({ ...n, position: { x: i, y: 0 }, data: { ...n.data, type: n.type } })),
  edges: g.edges.map((e) => ({ ...e, id: `${e.source}->${e.target}` })),
});

/** The formats the server names for an IO_MISMATCH on `source` → `target`, or null when it reports none. */
async function serverMismatch(g: Graph, source: string, target: string): Promise<string | null> {
  const result = await validateGraph({ ...g, edges: [...g.edges, { source, target }] }, { maxSteps: 1000, resolveWorkflow: async () => null });
  const issue = result.issues.find((i) => i.code === "IO_MISMATCH" && i.nodeId === target && i.message.includes(`, but "${source}" (`));
  const m = issue && /accepts (.*), but "[^"]+" \([^)]+\) produces (.*): connect/.exec(issue.message);
  return m ? `${m[1]} | ${m[2]}` : null;
}

describe("editor connection rules and server validation agree on formats", () => {
  test("on random graphs over the real catalog", async () => {
    const random = prng(Number(process.env.PARITY_SEED ?? 20));
    let refused = 0;
    let allowed = 0;
    for (let round = 0; round < 300; round++) {
      const g = randomGraph(random);
      const from = g.nodes[Math.floor(random() * (g.nodes.length - 1))];
      const later = g.nodes.slice(g.nodes.indexOf(from) + 1).filter((n) => !n.type.startsWith("trigger.") && !g.edges.some((e) => e.source === from.id && e.target === n.id));
      if (!later.length) continue;
      const to = later[Math.floor(random() * later.length)];
      const editor = canConnect(asEditor(g), from.id, to.id, CATALOG);
      const m = editor.ok ? null : /accepts (.*), but .* produces (.*)$/.exec(editor.reason);
      const server = await serverMismatch(g, from.id, to.id);
      expect({ graph: g, from: from.id, to: to.id, refused: m ? `${m[1]} | ${m[2]}` : editor.ok ? null : editor.reason }).toEqual({ graph: g, from: from.id, to: to.id, refused: server });
      if (server) refused++;
      else allowed++;
    }
    // Both outcomes were exercised, many times.
    expect(refused).toBeGreaterThan(30);
    expect(allowed).toBeGreaterThan(30);
  });
});
