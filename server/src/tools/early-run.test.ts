import { describe, expect, test } from "bun:test";
import type { InputFile } from "../queue/kinds";
import type { RunOutcome } from "./pool-protocol";
import { EarlyRun, InputHints } from "./early-run";

const row = (id: string, over: Partial<InputFile> = {}): InputFile => ({ id, status: "UPLOADED", filename: `${id}.pdf`, size: 100, mime: "application/pdf", storageKey: `u/u1/${id}`, ...over });

describe("InputHints", () => {
  test("answers every id's row only when all are known and the user's own", () => {
    const hints = new InputHints();
    hints.learn("u1", [row("a"), row("b")]);
    hints.learn("u2", [row("c")]);
    expect(hints.of("u1", ["b", "a"])?.map((h) => h.id)).toEqual(["b", "a"]);
    expect(hints.of("u1", ["a", "c"])).toBeNull();
    expect(hints.of("u2", ["a"])).toBeNull();
    expect(hints.of("u1", ["a", "zz"])).toBeNull();
  });

  test("keeps UPLOADED rows only, and the most recently used ones past its size", () => {
    const hints = new InputHints(2);
    hints.learn("u1", [row("a"), row("p", { status: "PENDING" })]);
    expect(hints.of("u1", ["p"])).toBeNull();
    hints.learn("u1", [row("b")]);
    hints.learn("u1", [row("a")]); // used again: now the newest
    hints.learn("u1", [row("c")]);
    expect(hints.of("u1", ["a"])).not.toBeNull();
    expect(hints.of("u1", ["b"])).toBeNull();
    expect(hints.of("u1", ["c"])).not.toBeNull();
  });
});

/** An EarlyRun whose run is a promise the test settles; `signal` is the one the run was given. */
function earlyRun(inputs: InputFile[]) {
  let settle!: (o: RunOutcome) => void;
  let signal!: AbortSignal;
  let progress!: (f: number) => void;
  const run = new EarlyRun(
    inputs.map((r) => ({ ...r, userId: "u1" })),
    (s, onProgress) => {
      signal = s;
      progress = onProgress;
      return new Promise((r) => (settle = r));
    },
  );
  return { run, settle, signal: () => signal, progress: () => progress };
}

describe("EarlyRun", () => {
  test("matches the admitted rows only when each names the same file, name, type, size and object", () => {
    const { run } = earlyRun([row("a"), row("b")]);
    expect(run.matches([row("b"), row("a")])).toBe(true);
    expect(run.matches([row("a")])).toBe(false);
    for (const change of [{ filename: "x.pdf" }, { mime: "text/plain" }, { size: 101 }, { storageKey: "u/u1/other" }, { status: "PENDING" as const }]) {
      expect(run.matches([row("a", change), row("b")])).toBe(false);
    }
  });

  test("adopted: the job's cancel stops the run and its progress goes to the job; the answer's arrival is noted", async () => {
    const { run, settle, signal, progress } = earlyRun([row("a")]);
    const seen: number[] = [];
    progress()(0.1); // before adoption: nobody listens
    const job = new AbortController();
    const outcome = run.adopt(job.signal, (f) => seen.push(f));
    progress()(0.5);
    expect(seen).toEqual([0.5]);
    expect(signal().aborted).toBe(false);
    job.abort();
    expect(signal().aborted).toBe(true);
    settle({ ok: false, error: { code: "CANCELLED", message: "stopped" } });
    expect(await outcome).toMatchObject({ ok: false });
    expect(run.arrivedAt).toBeGreaterThan(0);
  });

  test("dropped: a run that ends within the grace is let end; one still going past it is stopped", async () => {
    const quick = earlyRun([row("a")]);
    quick.run.drop(50);
    quick.settle({ ok: true, outputs: [] });
    await quick.run.outcome;
    await Bun.sleep(80);
    expect(quick.signal().aborted).toBe(false);
    const slow = earlyRun([row("b")]);
    slow.run.drop(20);
    expect(slow.signal().aborted).toBe(false);
    await Bun.sleep(60);
    expect(slow.signal().aborted).toBe(true);
  });

  test("adopted by a job already cancelled: the run is stopped at once; dropped: its progress goes nowhere", () => {
    const a = earlyRun([row("a")]);
    const cancelled = new AbortController();
    cancelled.abort();
    void a.run.adopt(cancelled.signal, () => {});
    expect(a.signal().aborted).toBe(true);
    const b = earlyRun([row("b")]);
    const seen: number[] = [];
    void b.run.adopt(new AbortController().signal, (f) => seen.push(f));
    b.run.drop();
    b.progress()(0.7);
    expect(seen).toEqual([]);
  });
});
