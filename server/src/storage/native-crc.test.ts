import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { useNativeCrc32, yazlCrc32 } from "./native-crc";

describe("native CRC-32 for yazl", () => {
  test("gives buffer-crc32's results, incrementally too, and is installed in yazl's instance", () => {
    const lib = yazlCrc32();
    const original = lib.unsigned;
    const data = randomBytes(100_003);
    const expected = original(data);
    const chunked = original(data.subarray(50_000), original(data.subarray(0, 50_000)));
    useNativeCrc32();
    expect(lib.unsigned).not.toBe(original);
    expect(yazlCrc32().unsigned(data)).toBe(expected);
    expect(lib.unsigned(data.subarray(50_000), lib.unsigned(data.subarray(0, 50_000)))).toBe(chunked);
    expect(crc32(data)).toBe(expected);
    expect(lib.unsigned(new Uint8Array(0))).toBe(0);
  });
});
