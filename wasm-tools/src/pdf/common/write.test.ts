import { describe, expect, test } from "bun:test";
import { ToolError } from "@vektor/shared/tools/manifest";
import { saveBuffer } from "./write";

/** A document whose save fails with mupdf's `message` (the real failure needs a PDF of over 500 MB). */
function failingSave(message: string): Parameters<typeof saveBuffer>[0] {
  const doc = {
    saveToBuffer() {
      throw new Error(message);
    },
  };
  return doc as unknown as Parameters<typeof saveBuffer>[0];
}

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (err) {
    return err instanceof ToolError ? `${err.code}: ${err.message}` : String(err);
  }
  return undefined;
}

describe("saveBuffer", () => {
  test("an output that mupdf's heap cannot hold is INPUT_TOO_LARGE; any other save failure is the file's (INPUT_INVALID)", () => {
    expect(codeOf(() => saveBuffer(failingSave("realloc (827430261 bytes) failed"), "scans.pdf"))).toMatch(/^INPUT_TOO_LARGE: "scans\.pdf" is too large to rewrite/);
    expect(codeOf(() => saveBuffer(failingSave("cannot find object in xref (12 0 R)"), "bad.pdf"))).toMatch(/^INPUT_INVALID: "bad\.pdf" could not be rewritten: cannot find object/);
  });
});
