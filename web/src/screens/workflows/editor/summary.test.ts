import { describe, expect, it } from "vitest";
import { paramsSummary } from "./summary";

describe("paramsSummary", () => {
  it("lists set params in a line, lists and objects readable, long ones cut", () => {
    expect(paramsSummary({ level: 6, name: "a.zip" })).toBe("level 6, name a.zip");
    expect(paramsSummary({ formats: ["pdf", "png"], unset: undefined, empty: "" })).toBe("formats pdf, png");
    expect(paramsSummary({ o: { a: 1 } })).toBe('o {"a":1}');
    expect(paramsSummary(undefined)).toBe("");
    expect(paramsSummary({ pattern: "x".repeat(100) }, 20)).toBe(`pattern ${"x".repeat(11)}…`);
  });
});
