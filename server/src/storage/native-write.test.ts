import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes, streamOf } from "./contract.testkit";
import { nativeWritesAt, writeRequestAt } from "./native-write";

const dir = mkdtempSync(join(tmpdir(), "vektor-native-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Without it every multipart part streams through JavaScript: slower and far more memory.
test("native positional writes are available on this platform", () => {
  expect(nativeWritesAt()).toBe(true);
});

test("a request body lands at its offset; the bytes around it stay", async () => {
  const path = join(dir, "data");
  const before = randomBytes(300_000);
  writeFileSync(path, before);
  const body = randomBytes(100_000);
  const request = new Request("http://127.0.0.1/", { method: "PUT", body: streamOf(body, 8192, 2), headers: { "content-length": String(body.length) }, duplex: "half" } as RequestInit);
  expect(await writeRequestAt(path, 150_000, request)).toBe(body.length);
  const after = new Uint8Array(readFileSync(path));
  expect(after.length).toBe(300_000);
  expect(after.subarray(0, 150_000)).toEqual(before.subarray(0, 150_000));
  expect(after.subarray(150_000, 250_000)).toEqual(body);
  expect(after.subarray(250_000)).toEqual(before.subarray(250_000));
});

test("a write past the end extends the file, leaving a hole that reads as zeros", async () => {
  const path = join(dir, "sparse");
  writeFileSync(path, "");
  const body = randomBytes(1000);
  expect(await writeRequestAt(path, 5000, new Request("http://127.0.0.1/", { method: "PUT", body }))).toBe(1000);
  const after = new Uint8Array(readFileSync(path));
  expect(after.length).toBe(6000);
  expect(after.subarray(0, 5000).every((b) => b === 0)).toBe(true);
  expect(after.subarray(5000)).toEqual(body);
});
