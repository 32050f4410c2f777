import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { accessTable, MCP_ACCESS, namesInProse } from "./access";
import { MCP_TOOLS } from "./tools";

describe("MCP access table", () => {
  test("every tool has a row and every row a tool", () => {
    expect(MCP_TOOLS.map((t) => t.name).sort()).toEqual(Object.keys(MCP_ACCESS).sort());
    for (const t of MCP_TOOLS) expect(t.access).toBe(MCP_ACCESS[t.name as keyof typeof MCP_ACCESS]);
  });

  test("the README shows the same table", () => {
    expect(readFileSync(join(import.meta.dir, "../../../README.md"), "utf8")).toContain(accessTable());
  });

  test("names in prose", () => {
    expect(namesInProse("anonymous")).toBe("list_tools and ping");
  });
});
