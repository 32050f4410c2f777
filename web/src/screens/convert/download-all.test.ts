/** Download all's ZIP (download-all.ts), read back with fflate's reader. */
import { unzipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { storeZip, uniqueName, zipName } from "./download-all";

const blob = (text: string) => new Blob([text]);

describe("storeZip", () => {
  test("every file, in order, under a unique name, stored (method 0) with its bytes", async () => {
    const zip = new Uint8Array(
      await (
        await storeZip([
          { name: "report.pdf", blob: blob("one") },
          { name: "report.pdf", blob: blob("two") },
          { name: "REPORT.pdf", blob: blob("three") },
          { name: "notes", blob: blob("four") },
        ])
      ).arrayBuffer(),
    );
    const back = unzipSync(zip);
    expect(Object.keys(back)).toEqual(["report.pdf", "report (2).pdf", "REPORT (3).pdf", "notes"]);
    expect(new TextDecoder().decode(back["report (2).pdf"])).toBe("two");
    // Local file header: signature, version, flags, then the method: 0 is STORE.
    expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    expect(zip[8] | (zip[9]! << 8)).toBe(0);
  });

  test("uniqueName and zipName", () => {
    const taken = new Set<string>();
    expect([uniqueName("a.tar.gz", taken), uniqueName("a.tar.gz", taken), uniqueName(".env", taken), uniqueName(".env", taken)]).toEqual(["a.tar.gz", "a.tar (2).gz", ".env", ".env (2)"]);
    expect(zipName("pdf.compress")).toBe("pdf-compress-results.zip");
  });
});
