import { describe, expect, test } from "bun:test";
import { fileFormats, matchesPrefixSuffix, safeFilename, splitExtension, uniqueFiles } from "./files";
import { fileRef } from "./testing/context";

describe("workflow file helpers", () => {
  test("fileFormats: the sniffed format, else what the MIME type and name suggest", () => {
    expect(fileFormats({ format: "gerber-zip", mime: "application/zip", filename: "b.zip" })).toEqual(["gerber-zip"]);
    expect(fileFormats({ format: null, mime: "application/pdf", filename: "x" })).toEqual(["pdf"]);
    expect(fileFormats({ format: null, mime: "application/octet-stream", filename: "part.STEP" })).toEqual(["step"]);
    expect(fileFormats({ format: null, mime: "application/octet-stream", filename: "blob" })).toEqual([]);
  });

  test("matchesPrefixSuffix: case-insensitive, absent parts match anything", () => {
    expect(matchesPrefixSuffix("Scan-01.PDF", "scan", ".pdf")).toBe(true);
    expect(matchesPrefixSuffix("a.pdf")).toBe(true);
    expect(matchesPrefixSuffix("a.pdf", "", ".step")).toBe(false);
    expect(matchesPrefixSuffix("a.pdf", "b")).toBe(false);
  });

  test("uniqueFiles keeps the first of each id", () => {
    const a = fileRef("a", null);
    const b = fileRef("b", null);
    expect(uniqueFiles([a, b, a, b])).toEqual([a, b]);
  });

  test("safeFilename and splitExtension", () => {
    expect(safeFilename(" ..hidden ")).toBe("hidden");
    expect(safeFilename("", "x.zip")).toBe("x.zip");
    expect(safeFilename(`${"a".repeat(250)}.tar`)).toBe(`${"a".repeat(196)}.tar`);
    expect(splitExtension("a.b.c")).toEqual({ stem: "a.b", ext: ".c" });
    expect(splitExtension(".profile")).toEqual({ stem: ".profile", ext: "" });
    expect(splitExtension("noext")).toEqual({ stem: "noext", ext: "" });
  });
});
