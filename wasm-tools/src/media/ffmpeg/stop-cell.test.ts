/**
 * The stop cell: a worker that reads host files in a loop, stopped between its calls, leaves no
 * descriptor open, where terminating it at any moment does (the control, so this test can see
 * a leak).
 */
import { describe, expect, test } from "bun:test";
import { closeSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { inHostFolder, openFilesIn } from "../../testing/host-files";
import { asHostCall, newStopCell, stopBetweenCalls } from "./stop-cell";

const ROUNDS = 40;

/** Starts the reading loop, lets it read for a few milliseconds, stops it; how many files it left open. */
async function readThenStop(dir: string, gated: boolean): Promise<number> {
  const path = `${dir}/piece.bin`;
  const cell = newStopCell();
  const worker = new Worker(new URL("./stop-cell.test-loop.ts", import.meta.url).href);
  const reading = new Promise((started) => (worker.onmessage = started));
  worker.postMessage({ path, cell, gated });
  await reading;
  await Bun.sleep(2 + Math.random() * 8);
  if (gated) await stopBetweenCalls(cell);
  worker.terminate();
  await Bun.sleep(20); // a worker that was not stopped in a call closes nothing later
  return openFilesIn(dir).length;
}

/** Closes what the control left open (descriptors of this process, under `dir`). */
function closeLeftOpen(dir: string): void {
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${dir}/`)) closeSync(Number(fd));
    } catch {
      // closed while listing
    }
  }
}

describe("stop cell", () => {
  test("a worker stopped between host calls leaves no file open; terminated at any moment, it does", async () => {
    await inHostFolder("stop-cell-", async (dir) => {
      writeFileSync(`${dir}/piece.bin`, new Uint8Array(256 * 1024));
      let gatedLeft = 0;
      let ungatedLeft = 0;
      for (let round = 0; round < ROUNDS; round++) gatedLeft += await readThenStop(dir, true);
      for (let round = 0; round < ROUNDS && ungatedLeft === 0; round++) ungatedLeft += await readThenStop(dir, false);
      closeLeftOpen(dir);
      expect({ gatedLeft, ungatedSawALeak: ungatedLeft > 0 }).toEqual({ gatedLeft: 0, ungatedSawALeak: true });
    });
  }, 60_000);

  test("a stop waits for the call under way; once stopped, no call starts; a call that never returns is waited for up to the limit", async () => {
    const refuse = (): never => {
      throw new Error("refused");
    };
    const cell = newStopCell();
    Atomics.or(cell, 0, 1); // a call under way, as asHostCall marks it
    let stopped = false;
    const stopping = stopBetweenCalls(cell).then(() => (stopped = true));
    await Bun.sleep(30);
    expect(stopped).toBe(false);
    Atomics.and(cell, 0, ~1); // the call returns
    await stopping;
    expect(() => asHostCall(cell, () => "ran", refuse)).toThrow("refused");

    const stuck = newStopCell();
    expect(asHostCall(stuck, () => "ran", refuse)).toBe("ran");
    Atomics.or(stuck, 0, 1); // a call that never returns
    const started = Date.now();
    await stopBetweenCalls(stuck, 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
