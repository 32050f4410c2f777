/**
 * The file ledger: host calls counted, none started once stopped, a stop that waits for the call
 * under way, descriptors held between calls listed for the host to close; and a worker reading
 * host files in a loop, ended through its ledger, leaves no file open where terminating it at any
 * moment does (the control, so the test can see a leak).
 */
import { describe, expect, test } from "bun:test";
import { closeSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { inHostFolder, openFilesIn } from "../testing/host-files";
import { asHostCall, asHostCallAsync, forgetHeld, newFileLedger, recordHeld, stopAndDrain } from "./file-ledger";

const ROUNDS = 40;

const refuse = (): never => {
  throw new Error("refused");
};

/** Starts the reading loop, lets it read for a few milliseconds, ends it; how many files it left open. */
async function readThenEnd(path: string, dir: string, counted: boolean): Promise<number> {
  const ledger = counted ? newFileLedger() : undefined;
  const worker = new Worker(new URL("./file-ledger.test-worker.ts", import.meta.url).href);
  const reading = new Promise((started) => (worker.onmessage = started));
  worker.postMessage({ path, ledger });
  await reading;
  await Bun.sleep(2 + Math.random() * 8);
  const held = ledger ? await stopAndDrain(ledger) : [];
  worker.terminate();
  for (const fd of held ?? []) closeSync(fd);
  await Bun.sleep(20); // a worker that was not stopped in a call closes nothing later
  return openFilesIn(dir).length;
}

/** Closes what the control left open (this process's descriptors under `dir`). */
function closeLeftOpen(dir: string): void {
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${dir}/`)) closeSync(Number(fd));
    } catch {
      // closed while listing
    }
  }
}

describe("file ledger", () => {
  test("a worker ended through its ledger leaves no file open; terminated at any moment, it does", async () => {
    await inHostFolder("file-ledger-", async (dir) => {
      const path = `${dir}/piece.bin`;
      writeFileSync(path, new Uint8Array(256 * 1024));
      let countedLeft = 0;
      let uncountedLeft = 0;
      for (let round = 0; round < ROUNDS; round++) countedLeft += await readThenEnd(path, dir, true);
      for (let round = 0; round < ROUNDS && uncountedLeft === 0; round++) uncountedLeft += await readThenEnd(path, dir, false);
      closeLeftOpen(dir);
      expect({ countedLeft, uncountedSawALeak: uncountedLeft > 0 }).toEqual({ countedLeft: 0, uncountedSawALeak: true });
    });
  }, 60_000);

  test("a stop waits for the call under way, then no call starts", async () => {
    const ledger = newFileLedger();
    let release!: () => void;
    const call = asHostCallAsync([ledger], () => new Promise<string>((done) => (release = () => done("ran"))), refuse);
    let drained = false;
    const draining = stopAndDrain(ledger).then(() => (drained = true));
    await Bun.sleep(30);
    expect(drained).toBe(false);
    release();
    expect(await call).toBe("ran");
    await draining;
    expect(() => asHostCall([ledger], () => "ran", refuse)).toThrow("refused");
    expect(asHostCall([], () => "ran without a ledger", refuse)).toBe("ran without a ledger");
  });

  test("a call counts in every ledger it is given; one stopped ledger refuses it and leaves the others as they were", async () => {
    const [own, thread] = [newFileLedger(0), newFileLedger(0)];
    await stopAndDrain(own);
    expect(() => asHostCall([thread, own], () => "ran", refuse)).toThrow("refused");
    expect(Atomics.load(thread, 0)).toBe(0);
    let inCall = -1;
    expect(asHostCall([thread], () => ((inCall = Atomics.load(thread, 0)), "ran"), refuse)).toBe("ran");
    expect([inCall, Atomics.load(thread, 0)]).toEqual([1, 0]);
  });

  test("descriptors held between calls are listed when drained; forgotten ones are not; a full ledger takes no more", async () => {
    const ledger = newFileLedger(2);
    expect([recordHeld(ledger, 0), recordHeld(ledger, 7), recordHeld(ledger, 9)]).toEqual([true, true, false]);
    forgetHeld(ledger, 0);
    expect(recordHeld(ledger, 11)).toBe(true);
    expect(await stopAndDrain(ledger)).toEqual([11, 7]);
  });

  test("a call that never returns is waited for up to the limit; then nothing is safe to close", async () => {
    const ledger = newFileLedger();
    recordHeld(ledger, 5);
    Atomics.add(ledger, 0, 1); // a call under way, as asHostCall counts it
    const started = Date.now();
    expect(await stopAndDrain(ledger, 200)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
