/** Result packing shared by the browser and server tool workers, through a real structured clone. */
import { describe, expect, test } from "bun:test";
import { ToolError } from "@vektor/shared/tools/manifest";
import { packError, packOutputs } from "./pack";

/** Posts `message` over a real MessageChannel with `transfer` and resolves what arrives. */
function roundTrip<T>(message: T, transfer: ArrayBuffer[]): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  const arrived = new Promise<T>((resolve) => (port2.onmessage = (e) => resolve(e.data as T)));
  port1.postMessage(message, transfer);
  return arrived.finally(() => (port1.close(), port2.close()));
}

const out = (bytes: Uint8Array) => ({ name: "o", mime: "application/octet-stream", bytes });

describe("packOutputs", () => {
  test("two views of one buffer: listing the buffer twice is what fails a naive transfer", () => {
    const heap = new Uint8Array([1, 2, 3, 4]);
    const { port1, port2 } = new MessageChannel();
    expect(() => port1.postMessage([heap.subarray(0, 2), heap.subarray(2)], [heap.buffer, heap.buffer])).toThrow();
    port1.close();
    port2.close();
  });

  test("two views of one buffer arrive whole, each on a buffer of its own", async () => {
    const heap = new Uint8Array([1, 2, 3, 4, 5]);
    const { result, transfer } = packOutputs([out(heap.subarray(0, 2)), out(heap.subarray(2))]);
    expect(new Set(transfer).size).toBe(2);
    const got = await roundTrip(result, transfer);
    expect(got.outputs.map((o) => [...o.bytes])).toEqual([[1, 2], [3, 4, 5]]);
  });

  test("an output that owns its whole buffer moves without a copy", () => {
    const bytes = new Uint8Array([9, 9]);
    const { result, transfer } = packOutputs([out(bytes)]);
    expect(result.outputs[0].bytes).toBe(bytes);
    expect(transfer).toEqual([bytes.buffer]);
  });

  test("the same whole view returned twice is copied once", async () => {
    const bytes = new Uint8Array([7]);
    const { result, transfer } = packOutputs([out(bytes), out(bytes)]);
    expect(new Set(transfer).size).toBe(2);
    expect((await roundTrip(result, transfer)).outputs.map((o) => [...o.bytes])).toEqual([[7], [7]]);
  });
});

describe("packError", () => {
  test("a ToolError keeps its code; anything else is TOOL_FAILED with its message", () => {
    expect(packError(new ToolError("INPUT_EMPTY", "no pages"))).toEqual({ ok: false, error: { code: "INPUT_EMPTY", message: "no pages" } });
    expect(packError(new Error("boom"))).toEqual({ ok: false, error: { code: "TOOL_FAILED", message: "boom" } });
    expect(packError("plain")).toEqual({ ok: false, error: { code: "TOOL_FAILED", message: "plain" } });
  });
});
