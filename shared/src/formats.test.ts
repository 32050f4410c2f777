/** What a file could be, from its MIME type and name: the indexed look-up answers as a scan of every format does. */
import { describe, expect, test } from "bun:test";
import { candidateFormats, FORMATS, type FormatInfo } from "./formats";

/** What candidateFormats answers, worked out by scanning every format (as it did before its indexes). */
function scanned(mime: string, filename: string): FormatInfo[] {
  const m = mime.toLowerCase().split(";")[0].trim();
  const dot = filename.lastIndexOf(".");
  const ext = dot < 0 ? "" : filename.slice(dot + 1).toLowerCase();
  const byMime = FORMATS.filter((f) => (f.mimes as readonly string[]).includes(m));
  const byExt = FORMATS.filter((f) => (f.extensions as readonly string[]).includes(ext));
  if (byMime.length && byExt.length) {
    const both = byMime.filter((f) => byExt.includes(f));
    return both.length ? both : byMime;
  }
  return byMime.length ? byMime : byExt;
}

describe("candidateFormats", () => {
  test("answers every known MIME type and extension, alone and together, as a scan of every format would, in FORMATS order", () => {
    const mimes = ["", "application/octet-stream", "Application/PDF; charset=binary", ...new Set(FORMATS.flatMap((f) => f.mimes))];
    const names = ["", "noext", "a.UNKNOWN", ...new Set(FORMATS.flatMap((f) => f.extensions.map((e) => `file.${e.toUpperCase()}`)))];
    let nonEmpty = 0;
    for (const mime of mimes) {
      for (const name of names) {
        const answer = candidateFormats(mime, name);
        expect({ mime, name, ids: answer.map((f) => f.id) }).toEqual({ mime, name, ids: scanned(mime, name).map((f) => f.id) });
        if (answer.length) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(mimes.length);
  });

  test("a generic MIME type is narrowed by the extension; an unknown one falls back to it", () => {
    expect(candidateFormats("application/pdf", "x.pdf").map((f) => f.id)).toEqual(["pdf"]);
    expect(candidateFormats("application/x-unknown", "x.pdf").map((f) => f.id)).toEqual(["pdf"]);
    expect(candidateFormats("application/x-unknown", "x.nothing")).toEqual([]);
  });
});
