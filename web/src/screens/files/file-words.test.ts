import type { FileRecord, FileSource } from "@vektor/shared/schemas/file";
import { describe, expect, test } from "vitest";
import { pageChoice, sourceWords, statusWord, toggled, whyNotRun } from "./file-words";

const file = (fileId: string, status: FileRecord["status"] = "UPLOADED") => ({ fileId, filename: `${fileId}.pdf`, status });
const titles = (slug: string) => ({ "pdf.compress": "Compress PDF" })[slug];
const source = (over: Partial<FileSource> = {}): FileSource => ({ jobId: "j_1", tool: "pdf.compress", inputFileId: "f_in", inputFilename: "plan.pdf", ...over });

describe("words", () => {
  test("statuses are words, not enum values", () => {
    expect(statusWord("UPLOADED")).toBe("Ready");
    expect(statusWord("PENDING")).toBe("Upload not finished");
  });

  test("an output names its tool by title and the file it was made from", () => {
    expect(sourceWords(source(), titles)).toBe("Compress PDF, made from plan.pdf");
    expect(sourceWords(source({ tool: "pdf.rotate" }), titles)).toBe("pdf.rotate, made from plan.pdf");
    expect(sourceWords(source({ inputFilename: null }), titles)).toBe("Compress PDF, made from a file since deleted");
    expect(sourceWords(source({ tool: null, runId: "run_1" }), titles)).toBe("A workflow step, made from plan.pdf");
    expect(sourceWords(source({ tool: null, inputFileId: null, inputFilename: null }), titles)).toBe("A job");
  });
});

describe("choosing rows", () => {
  test("rows are added and taken out by id, kept across pages", () => {
    const page1 = [file("f_a"), file("f_b")];
    const page2 = [file("f_c")];
    let chosen = toggled(new Map(), page1, true);
    chosen = toggled(chosen, page2, true);
    expect([...chosen.keys()]).toEqual(["f_a", "f_b", "f_c"]);
    chosen = toggled(chosen, [file("f_b")], false);
    expect([...chosen.keys()]).toEqual(["f_a", "f_c"]);
  });

  test("the page's box is all, some or none of its rows", () => {
    const chosen = toggled(new Map(), [file("f_a")], true);
    expect(pageChoice(chosen, ["f_a"])).toBe("all");
    expect(pageChoice(chosen, ["f_a", "f_b"])).toBe("some");
    expect(pageChoice(chosen, ["f_b"])).toBe("none");
  });

  test("only ready files, and not too many, go to a tool", () => {
    expect(whyNotRun([file("f_a"), file("f_b")], 2)).toBeNull();
    expect(whyNotRun([file("f_a"), file("f_b"), file("f_c")], 2)).toBe("Choose at most 2 files to run a tool on.");
    expect(whyNotRun([file("f_a", "PENDING")], 2)).toBe("Some chosen files are not uploaded yet.");
  });
});
