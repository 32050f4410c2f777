import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeStaged, stageOutputs } from "./staged-outputs";

const root = mkdtempSync(join(tmpdir(), "vektor-stage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bytes = (text: string) => new TextEncoder().encode(text);
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

describe("stageOutputs", () => {
  test("writes each output held as bytes to a file of its own (the folder made), hashed; an output already a file is left as it is", () => {
    const dir = join(root, "a", "staging");
    const outputs = stageOutputs(dir, [
      { name: "one.txt", mime: "text/plain", bytes: bytes("one") },
      { name: "two.bin", mime: "application/octet-stream", bytes: bytes("") },
      { name: "big.las", mime: "application/octet-stream", bytes: new Uint8Array(0), path: "big.las" },
    ]);
    expect(outputs.map((o) => [o.name, o.mime, o.bytes.byteLength])).toEqual([
      ["one.txt", "text/plain", 0],
      ["two.bin", "application/octet-stream", 0],
      ["big.las", "application/octet-stream", 0],
    ]);
    expect(readFileSync(outputs[0].staged!.path, "utf8")).toBe("one");
    expect(outputs[0].staged).toMatchObject({ size: 3, sha256: sha256(bytes("one")) });
    expect(outputs[1].staged).toMatchObject({ size: 0, sha256: sha256(bytes("")) });
    expect(outputs[2]).toEqual({ name: "big.las", mime: "application/octet-stream", bytes: new Uint8Array(0), path: "big.las" });
    removeStaged(outputs);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a folder it cannot write in (a file stands where it should be): nothing is written, and the outputs come back as bytes", () => {
    const blocked = join(root, "blocked");
    writeFileSync(blocked, "a file, not a folder");
    const given = [
      { name: "one.txt", mime: "text/plain", bytes: bytes("one") },
      { name: "two.txt", mime: "text/plain", bytes: bytes("two") },
    ];
    expect(stageOutputs(join(blocked, "staging"), given)).toBe(given);
    expect(readFileSync(blocked, "utf8")).toBe("a file, not a folder");
  });
});
