import { describe, expect, test } from "vitest";
import { convertSearch, MAX_STORED_INPUTS, storedIdsOf } from "./convert-search";

describe("Convert's ?files=", () => {
  test("well-formed ids are kept, each once, in order", () => {
    expect(storedIdsOf("f_abc,f_DEF9,f_abc")).toEqual(["f_abc", "f_DEF9"]);
    expect(convertSearch({ files: "f_a,f_b" })).toEqual({ files: "f_a,f_b" });
  });

  test("anything else is dropped", () => {
    expect(storedIdsOf("f_a,../x,f_ b,,j_1,f_")).toEqual(["f_a"]);
    expect(storedIdsOf(42)).toEqual([]);
    expect(convertSearch({ files: ["f_a"] })).toEqual({});
    expect(convertSearch({})).toEqual({});
  });

  test("at most MAX_STORED_INPUTS", () => {
    const many = Array.from({ length: MAX_STORED_INPUTS + 5 }, (_, i) => `f_${i}`).join(",");
    expect(storedIdsOf(many)).toHaveLength(MAX_STORED_INPUTS);
  });
});
