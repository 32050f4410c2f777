import { describe, expect, test } from "bun:test";
import { ToolError } from "../tools/manifest";
import { safeEntryNames, uniqueFiles } from "./files";
import { filterFiles, globToRegExp, matchesFilter, opRuns, RENAME_PATTERN, renameFile, renamePlan, zipName } from "./nodes";

const file = (filename: string, size = 10, format: string | null = null, mime = "application/octet-stream") => ({ id: filename, filename, size, format, mime });

describe("logic.filter", () => {
  test("a glob matches the whole name, case-insensitively; only * and ? are special", () => {
    expect(globToRegExp("*.pdf").test("Plan.PDF")).toBe(true);
    expect(globToRegExp("scan-??.tif").test("scan-01.tif")).toBe(true);
    expect(globToRegExp("scan-??.tif").test("scan-1.tif")).toBe(false);
    expect(globToRegExp("a+b(1).pdf").test("a+b(1).pdf")).toBe(true);
    expect(globToRegExp("*.pdf").test("x.pdf.txt")).toBe(false);
  });

  test("every condition set must hold; the format is the sniffed one, else what the name says", () => {
    expect(matchesFilter(file("a.pdf"), { formats: ["pdf"] })).toBe(true);
    expect(matchesFilter(file("a.pdf", 10, "png"), { formats: ["pdf"] })).toBe(false);
    expect(matchesFilter(file("a.pdf", 10), { formats: ["pdf"], minSize: 11 })).toBe(false);
    expect(matchesFilter(file("a.pdf", 10), { maxSize: 10, minSize: 10, glob: "A.*" })).toBe(true);
    const { kept, log } = filterFiles([file("a.pdf"), file("b.png"), file("c.dxf")], { formats: ["pdf", "dxf"] });
    expect(kept.map((f) => f.filename)).toEqual(["a.pdf", "c.dxf"]);
    expect(log).toBe("Kept 2 of 3 file(s)");
  });
});

describe("logic.merge", () => {
  test("each file once, first occurrence first", () => {
    expect(uniqueFiles([file("a"), file("b"), file("a")]).map((f) => f.id)).toEqual(["a", "b"]);
  });
});

describe("sink.rename", () => {
  const at = new Date("2025-03-04T23:59:00Z");
  test("placeholders, and a safe result", () => {
    expect(renameFile("{date}-{index}-{name}{ext}", "plan.pdf", 3, at)).toBe("2025-03-04-3-plan.pdf");
    expect(renameFile("../{name}{ext}", "a.pdf", 1, at)).toBe("_a.pdf");
    expect(renameFile("..", "f.pdf", 1, at)).toBe("f.pdf");
  });
  test("the pattern allows only the known placeholders", () => {
    const re = new RegExp(RENAME_PATTERN);
    expect(re.test("{name}-{date}{ext}")).toBe(true);
    expect(re.test("{nom}{ext}")).toBe(false);
  });
  test("renamePlan numbers the inputs from 1 and says which names did not change", () => {
    expect(renamePlan([file("a.pdf"), file("b.pdf")], "{name}{ext}", at).map((r) => r.same)).toEqual([true, true]);
    expect(renamePlan([file("a.pdf"), file("b.pdf")], "{index}{ext}", at).map((r) => [r.name, r.same])).toEqual([
      ["1.pdf", false],
      ["2.pdf", false],
    ]);
  });
});

describe("sink.zip", () => {
  test("the ZIP's name is safe and ends in .zip", () => {
    expect(zipName("plans")).toBe("plans.zip");
    expect(zipName("A.ZIP")).toBe("A.ZIP");
    expect(zipName("../x")).toBe("_x.zip");
  });
  test("entry names are flat and unique, case-insensitively", () => {
    expect(safeEntryNames(["a.pdf", "A.pdf", "dir/a.pdf", "..", "a.pdf"])).toEqual(["a.pdf", "A (2).pdf", "dir_a.pdf", "output", "a (3).pdf"]);
  });
});

describe("op.<tool>", () => {
  const compress = { slug: "pdf.compress", accepts: ["pdf"], minInputs: 1, maxInputs: 1 };
  const merge = { slug: "pdf.merge", accepts: ["pdf"], minInputs: 2, maxInputs: 3 };
  test("a one-file tool runs once per accepted file; the rest are skipped with a reason", () => {
    const lines: string[] = [];
    expect(opRuns(compress, [file("a.pdf"), file("b.png"), file("c.pdf")], (l) => lines.push(l)).map((r) => r.map((f) => f.filename))).toEqual([["a.pdf"], ["c.pdf"]]);
    expect(lines).toEqual(['Skipped "b.png" (unknown format): pdf.compress accepts pdf']);
  });
  test("a tool over several files runs once over all of them, within its range", () => {
    expect(opRuns(merge, [file("a.pdf"), file("b.pdf")]).map((r) => r.length)).toEqual([2]);
    expect(opRuns(merge, [])).toEqual([]);
    expect(() => opRuns(merge, [file("a.pdf")])).toThrow(new ToolError("INPUT_INVALID", "pdf.merge needs at least 2 files; this step got 1"));
    expect(() => opRuns(merge, ["a", "b", "c", "d"].map((n) => file(`${n}.pdf`)))).toThrow("pdf.merge takes at most 3 files; this step got 4");
  });
});
