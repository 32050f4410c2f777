import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { ToolError, type ToolManifest, type ToolRun } from "@vektor/shared/tools/manifest";
import type { ToolEntry } from "../registry";
import { expectToolError } from "../testing/run-tool";
import { ABORT_GRACE_MS, apartFromInputs, execute, executeEntry } from "./execute";

const manifest: ToolManifest = {
  slug: "pdf.stand-in",
  family: "pdf",
  title: "Stand-in",
  description: "A tool for testing execute()",
  io: { accepts: ["pdf"], produces: ["txt"], minInputs: 1, maxInputs: 2 },
  params: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 5, default: 2 }) }, { additionalProperties: false }),
  deterministic: true,
  limits: { maxInputBytes: 10 },
};
const standIn = (run: ToolRun<{ n: number }>): ToolEntry => ({ manifest, load: async () => ({ run }) });
const file = (bytes = 3) => ({ name: "f.pdf", bytes: new Uint8Array(bytes).fill(1) });

/** A signal that aborts 10 ms from now (while the run is under way). */
function abortedSoon(): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 10);
  return controller.signal;
}

/** A stand-in that, as an ffmpeg session does, ends `ms` after the abort (its host calls under way first), then rejects. */
function cleansUpOnAbort(ms: number): { entry: ToolEntry; cleanedUp: () => boolean } {
  let cleanedUp = false;
  const entry = standIn(
    (_inputs, _params, ctx) =>
      new Promise((_, reject) => {
        ctx.signal.addEventListener("abort", () => setTimeout(() => ((cleanedUp = true), reject(new ToolError("CANCELLED", "stopped"))), ms), { once: true });
      }),
  );
  return { entry, cleanedUp: () => cleanedUp };
}

describe("execute", () => {
  test("passes validated params with defaults and reports progress up to 1", async () => {
    let seen: unknown;
    const progress: number[] = [];
    const entry = standIn(async (inputs, params, ctx) => {
      seen = params;
      ctx.onProgress(0.5);
      ctx.onProgress(7); // clamped
      return [{ name: "out.txt", bytes: new Uint8Array([inputs.length]), mime: "text/plain" }];
    });
    const outputs = await executeEntry(entry, [file(), file()], {}, { onProgress: (f) => progress.push(f) });
    expect(seen).toEqual({ n: 2 });
    expect(outputs[0].bytes[0]).toBe(2);
    expect(progress).toEqual([0.5, 1, 1]);
  });

  test("PARAMS_INVALID, INPUT_EMPTY, INPUT_INVALID and INPUT_TOO_LARGE before the tool runs", async () => {
    let calls = 0;
    const entry = standIn(async () => {
      calls++;
      return [];
    });
    await expectToolError(executeEntry(entry, [file()], { n: 9 }), "PARAMS_INVALID", /n: Expected integer to be less or equal to 5/);
    await expectToolError(executeEntry(entry, [], {}), "INPUT_EMPTY", /none was given/);
    await expectToolError(executeEntry(entry, [file(), file(0)], {}), "INPUT_EMPTY", /0 bytes/);
    await expectToolError(executeEntry(entry, [file(), file(), file()], {}), "INPUT_INVALID", /1 to 2 input files; 3 were given/);
    await expectToolError(executeEntry(entry, [file(11)], {}), "INPUT_TOO_LARGE", /at most 10/);
    expect(calls).toBe(0);
  });

  test("CANCELLED when aborted before or during a run, even if the tool ignores the signal", async () => {
    const entry = standIn(() => new Promise(() => {})); // never settles
    const before = new AbortController();
    before.abort();
    await expectToolError(executeEntry(entry, [file()], {}, { signal: before.signal }), "CANCELLED");
    const during = new AbortController();
    setTimeout(() => during.abort(), 10);
    await expectToolError(executeEntry(entry, [file()], {}, { signal: during.signal }), "CANCELLED");
  });

  test("on host files, an aborted run's own clean-up ends before CANCELLED is answered; one that never ends is cut off after the grace", async () => {
    const onHost = { outputDir: "/nowhere/out" }; // what a server's worker passes; the stand-ins write nothing
    const tidy = cleansUpOnAbort(50);
    await expectToolError(executeEntry(tidy.entry, [file()], {}, { ...onHost, signal: abortedSoon() }), "CANCELLED");
    expect(tidy.cleanedUp()).toBe(true);

    const finishes = standIn(async (_inputs, _params, ctx) => {
      await new Promise((done) => ctx.signal.addEventListener("abort", () => setTimeout(done, 20), { once: true }));
      return [{ name: "late.txt", bytes: new Uint8Array([1]), mime: "text/plain" }];
    });
    await expectToolError(executeEntry(finishes, [file()], {}, { ...onHost, signal: abortedSoon() }), "CANCELLED"); // finished after its cancel: still cancelled

    const stuck = standIn(() => new Promise(() => {}));
    const started = performance.now();
    await expectToolError(executeEntry(stuck, [file()], {}, { ...onHost, signal: abortedSoon() }), "CANCELLED");
    expect(performance.now() - started).toBeGreaterThanOrEqual(ABORT_GRACE_MS - 5);
  });

  test("elsewhere (a browser's worker), an abort answers CANCELLED at once, before the run's clean-up", async () => {
    const tidy = cleansUpOnAbort(200);
    await expectToolError(executeEntry(tidy.entry, [file()], {}, { signal: abortedSoon() }), "CANCELLED");
    expect(tidy.cleanedUp()).toBe(false);
  });

  test("keeps a tool's own ToolError and wraps anything else as TOOL_FAILED", async () => {
    const own = standIn(async () => {
      throw new ToolError("INPUT_UNSUPPORTED", "variant X");
    });
    await expectToolError(executeEntry(own, [file()], {}), "INPUT_UNSUPPORTED", /variant X/);
    const crash = standIn(async () => {
      throw new RangeError("index out of range");
    });
    const error = await expectToolError(executeEntry(crash, [file()], {}), "TOOL_FAILED", /pdf\.stand-in failed: index out of range/);
    expect((error as Error).cause).toBeInstanceOf(RangeError);
  });

  test("an unknown slug is TOOL_FAILED", async () => {
    await expectToolError(execute("pdf.nothing", [file()], {}), "TOOL_FAILED", /Unknown tool/);
  });

  test("an output never has an input's name: it gets the tool's verb, numbered past any name taken", async () => {
    const out = (name: string) => ({ name, bytes: new Uint8Array([1]), mime: "application/pdf" });
    const entry = standIn(async () => [out("F.pdf"), out("f-stand-in.pdf"), out("other.pdf")]);
    const outputs = await executeEntry(entry, [file()], {});
    expect(outputs.map((o) => o.name)).toEqual(["F-stand-in-2.pdf", "f-stand-in.pdf", "other.pdf"]);
    expect(apartFromInputs([out("a")], [{ name: "a", bytes: new Uint8Array() }], "pdf.x").map((o) => o.name)).toEqual(["a-x"]);
  });
});
