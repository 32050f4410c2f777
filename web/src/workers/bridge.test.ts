/**
 * ToolBridge against the real tool worker (tool.worker.ts, run as a Bun Web Worker, with the
 * wasm-tools registry) on real PDFs; for start-up failures, workers that crash while loading or
 * never say they are ready (testing/*.worker.ts).
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { listManifests } from "@vektor/wasm-tools";
import { makeTextPdf } from "@vektor/wasm-tools/testing/pdf-fixtures";
import { afterEach, describe, expect, test } from "vitest";
import { createToolWorker, ToolBridge, type BridgeOptions } from "./bridge";

const bridges: ToolBridge[] = [];
function bridge(options: BridgeOptions = {}): ToolBridge {
  const made = new ToolBridge(options);
  bridges.push(made);
  return made;
}
afterEach(() => {
  for (const b of bridges.splice(0)) b.terminate();
});

const testWorker = (name: string) => () => new Worker(new URL(`./testing/${name}.worker.ts`, import.meta.url), { type: "module" });

/** The ToolError `call` rejects with (fails the test when it resolves). */
async function failure(call: Promise<unknown>): Promise<ToolError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

/** Waits (polling) until `check` holds, failing after `ms`. */
async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("ToolBridge", () => {
  test("lists the tools of the wasm-tools registry from its worker", async () => {
    const b = bridge({ createWorker: createToolWorker });
    const slugs = (await b.manifests()).map((m) => m.slug);
    expect(slugs).toEqual(listManifests().map((m) => m.slug));
    expect(b.alive).toBe(true);
  }, 30_000);

  test("runs a tool: outputs back, progress reported, the input's buffer handed over", async () => {
    const b = bridge();
    const pdf = await makeTextPdf(3);
    const progress: number[] = [];
    const [out] = await b.run("pdf.metadata", [{ name: "three.pdf", bytes: pdf }], {}, { onProgress: (f) => progress.push(f) });
    expect(out!.name.endsWith(".json")).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(out!.bytes))).toMatchObject({ pageCount: 3 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    // Transferred, not copied: the caller's view is detached.
    expect(pdf.byteLength).toBe(0);
  }, 30_000);

  test("a view into a larger buffer is copied, so the rest of that buffer stays the caller's", async () => {
    const b = bridge();
    const pdf = await makeTextPdf(1);
    const larger = new Uint8Array(pdf.byteLength + 16);
    larger.set(pdf, 16);
    const [out] = await b.run("pdf.metadata", [{ name: "one.pdf", bytes: larger.subarray(16) }], {});
    expect(JSON.parse(new TextDecoder().decode(out!.bytes))).toMatchObject({ pageCount: 1 });
    expect(larger.byteLength).toBe(pdf.byteLength + 16);
  }, 30_000);

  test("the tool's own refusal comes back with its code and keeps the worker", async () => {
    const b = bridge();
    const err = await failure(b.run("pdf.metadata", [{ name: "one.pdf", bytes: await makeTextPdf(1) }], { creator: "me" }));
    expect(err.code).toBe("PARAMS_INVALID");
    expect(b.alive).toBe(true);
  }, 30_000);

  test("a run cancelled in the worker fails with CANCELLED, its worker is replaced, and the next run works", async () => {
    const b = bridge();
    const controller = new AbortController();
    // Cancelled at its first progress report: the run is under way in the worker.
    const run = b.run("pdf.compress", [{ name: "big.pdf", bytes: await makeTextPdf(40) }], {}, { signal: controller.signal, onProgress: () => controller.abort() });
    expect((await failure(run)).code).toBe("CANCELLED");
    expect(b.alive).toBe(false);
    const [out] = await b.run("pdf.metadata", [{ name: "one.pdf", bytes: await makeTextPdf(1) }], {});
    expect(JSON.parse(new TextDecoder().decode(out!.bytes))).toMatchObject({ pageCount: 1 });
  }, 60_000);

  test("a run aborted before it starts never reaches a worker", async () => {
    const b = bridge();
    const err = await failure(b.run("pdf.metadata", [{ name: "one.pdf", bytes: await makeTextPdf(1) }], {}, { signal: AbortSignal.abort() }));
    expect(err.code).toBe("CANCELLED");
    expect(b.alive).toBe(false);
  });

  test("a run past its time limit fails with TIMEOUT and its worker is replaced", async () => {
    const b = bridge();
    await b.manifests();
    // One millisecond: less than a message's round trip to the worker, let alone the tool.
    const err = await failure(b.run("pdf.compress", [{ name: "big.pdf", bytes: await makeTextPdf(40) }], {}, { timeoutMs: 1 }));
    expect(err.code).toBe("TIMEOUT");
    expect(b.alive).toBe(false);
  }, 30_000);

  test("runs are queued one at a time: each settles in the order asked, and the bridge is busy until the last", async () => {
    const b = bridge();
    const settled: string[] = [];
    const first = b.run("pdf.compress", [{ name: "big.pdf", bytes: await makeTextPdf(40) }], {}).then(() => settled.push("big"));
    const second = b.run("pdf.metadata", [{ name: "one.pdf", bytes: await makeTextPdf(1) }], {}).then(() => settled.push("small"));
    expect(b.busy).toBe(true);
    await Promise.all([first, second]);
    expect(settled).toEqual(["big", "small"]);
    expect(b.busy).toBe(false);
  }, 60_000);

  test("an idle worker is shut down", async () => {
    const b = bridge({ idleMs: 50 });
    await b.manifests();
    await until(() => !b.alive);
  }, 30_000);

  test("a worker that fails while it loads is reported as WORKER_CRASHED", async () => {
    const b = bridge({ createWorker: testWorker("crashing") });
    const err = await failure(b.manifests());
    expect(err.code).toBe("WORKER_CRASHED");
    expect(err.message).toContain("this worker fails while it starts");
    expect(b.alive).toBe(false);
  });

  test("a worker that never says it is ready is given up as WORKER_CRASHED", async () => {
    const b = bridge({ createWorker: testWorker("silent"), readyTimeoutMs: 200 });
    const err = await failure(b.manifests());
    expect(err.code).toBe("WORKER_CRASHED");
    expect(err.message).toContain("did not start");
    expect(b.alive).toBe(false);
  });
});
