import { describe, expect, test } from "bun:test";
import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Template } from "@vektor/shared/schemas/workflow";
import { expandGraph } from "./expand";
import { parseGraph } from "./graph";
import { BUILTIN_TEMPLATES, builtinTemplate, isBuiltinId } from "./templates";
import { resolverOf } from "./testing/graphs";
import { validateGraph } from "./validate";

// The HTTP layer registers the string formats; a plain Value.Check needs the one Template uses.
if (!FormatRegistry.Has("date-time")) FormatRegistry.Set("date-time", (v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString() === v);

describe("built-in templates", () => {
  test("at least five, with unique builtin: ids, shaped as the API shows them", () => {
    expect(BUILTIN_TEMPLATES.length).toBeGreaterThanOrEqual(5);
    expect(new Set(BUILTIN_TEMPLATES.map((t) => t.id)).size).toBe(BUILTIN_TEMPLATES.length);
    for (const t of BUILTIN_TEMPLATES) {
      expect(t.id).toMatch(/^builtin:[a-z0-9-]+$/);
      expect(Value.Check(Template, t)).toBe(true);
      expect(builtinTemplate(t.id)).toBe(t);
    }
    expect(builtinTemplate("builtin:nope")).toBeUndefined();
    expect(isBuiltinId("builtin:nope")).toBe(true);
    expect(isBuiltinId("tpl_1")).toBe(false);
  });

  for (const t of BUILTIN_TEMPLATES) {
    test(`${t.id} parses, validates (maxSteps 25) and expands`, async () => {
      const parsed = parseGraph(t.graphJson);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const result = await validateGraph(parsed.graph, { maxSteps: 25, resolveWorkflow: resolverOf({}) });
      expect(result.issues).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.steps).toBeGreaterThan(0);
      expect((await expandGraph(parsed.graph, resolverOf({}))).nodes).toHaveLength(parsed.graph.nodes.length);
    });
  }
});
