import { describe, expect, it } from "vitest";
import { addNode, connect, moveNodes, removeNodes, setParams } from "./graph";
import { canRedo, canUndo, createHistory, current, push, redo, sameJson, undo, type History } from "./history";
import { pasteNodes, copyNodes } from "./clipboard";
import { CATALOG, deepFreeze, entry, graph } from "./testing/catalog";

const start = deepFreeze(
  graph(
    [
      ["source", "source.upload"],
      ["compress", "op.pdf.compress", { level: 6 }],
      ["render", "op.pdf.render-png"],
      ["zip", "sink.zip"],
    ],
    ["source>compress", "compress>zip", "source>render"],
  ),
);
/** A deep copy, to compare against after many steps (the values in the history must never change). */
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("undo stack", () => {
  it("starts with nothing to undo or redo", () => {
    const h = createHistory(start);
    expect([canUndo(h), canRedo(h)]).toEqual([false, false]);
    expect(current(h)).toBe(start);
    expect(undo(h)).toBe(h);
    expect(redo(h)).toBe(h);
  });

  it("undo and redo restore every graph exactly, in order", () => {
    const snapshots = [copy(start)];
    let h: History = createHistory(start);
    const edits = [
      (g: typeof start) => addNode(g, entry("sink.download")).graph,
      (g: typeof start) => setParams(g, "compress", { level: 9 }),
      (g: typeof start) => {
        const out = connect(g, "render", "zip", CATALOG);
        if (!out.ok) throw new Error(out.reason);
        return out.graph;
      },
      (g: typeof start) => moveNodes(g, { zip: { x: 999, y: 1 } }),
    ];
    for (const edit of edits) {
      h = push(h, deepFreeze(edit(current(h))));
      snapshots.push(copy(current(h)));
    }
    for (let i = snapshots.length - 2; i >= 0; i--) {
      h = undo(h);
      expect(current(h)).toEqual(snapshots[i]);
    }
    expect(canUndo(h)).toBe(false);
    for (let i = 1; i < snapshots.length; i++) {
      h = redo(h);
      expect(current(h)).toEqual(snapshots[i]);
    }
    expect(canRedo(h)).toBe(false);
  });

  it("a delete of many nodes is one step", () => {
    const h = push(createHistory(start), removeNodes(start, ["compress", "render", "zip"]));
    expect(current(h).nodes.map((n) => n.id)).toEqual(["source"]);
    const back = undo(h);
    expect(current(back)).toEqual(start);
    expect(canUndo(back)).toBe(false);
  });

  it("a paste of many nodes is one step", () => {
    const pasted = pasteNodes(start, copyNodes(start, ["compress", "zip"]));
    if (!pasted.ok) throw new Error(pasted.reason);
    const h = push(createHistory(start), pasted.graph);
    expect(current(h).nodes).toHaveLength(6);
    expect(current(undo(h))).toEqual(start);
  });

  it("pushing a graph equal to the present one records nothing (a click that moved nothing)", () => {
    const h = createHistory(start);
    expect(push(h, copy(start))).toBe(h);
    expect(push(h, moveNodes(start, { zip: start.nodes[3].position }))).toBe(h);
  });

  it("a drag is pushed once at its end: one undo returns to where it began", () => {
    let h = createHistory(start);
    let dragging = current(h);
    for (let x = 0; x <= 100; x += 10) dragging = moveNodes(dragging, { zip: { x, y: 5 } });
    h = push(h, dragging);
    expect(current(undo(h))).toEqual(start);
  });

  it("a new step after undo drops what could have been redone", () => {
    let h = push(createHistory(start), setParams(start, "compress", { level: 1 }));
    h = undo(h);
    h = push(h, setParams(start, "compress", { level: 2 }));
    expect(canRedo(h)).toBe(false);
    expect(current(undo(h))).toEqual(start);
  });

  it("keeps at most `limit` steps, dropping the oldest", () => {
    let h = createHistory(start, 3);
    for (let level = 1; level <= 5; level++) h = push(h, setParams(start, "compress", { level }));
    expect(h.past).toHaveLength(3);
    h = undo(undo(undo(h)));
    expect(canUndo(h)).toBe(false);
    expect(current(h).nodes[1].data.params).toEqual({ level: 2 });
  });

  it("leaves the history it was given unchanged", () => {
    const h = deepFreeze(push(createHistory(start), setParams(start, "compress", { level: 3 })));
    expect(() => redo(undo(push(h, removeNodes(start, ["zip"]))))).not.toThrow();
  });
});

describe("sameJson", () => {
  it("compares JSON values structurally, key order and undefined keys aside", () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: {} }, { a: [] })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson(1, 1)).toBe(true);
  });
});
