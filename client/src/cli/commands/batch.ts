/** batch <tool> <files...>: a batch with a live progress bar from the event stream, and --zip. */
import { saveDownload } from "@vektor/shared/client/node";
import type { Command } from "commander";
import { context, FailedWork, type GlobalOptions } from "../context";
import { collectParam, fileIdsOf } from "../inputs";
import { withInterrupt } from "../interrupt";
import { batchProgress } from "../progress";

interface BatchOptions extends GlobalOptions {
  param: Record<string, unknown>;
  name?: string;
  zip?: string;
  wait: boolean;
}

export function batchCommand(program: Command): void {
  program
    .command("batch <tool> <files...>")
    .description("run a tool over many files as a batch (charged in credits), following its progress")
    .option("-p, --param <key=value>", "a tool parameter (repeat it); JSON values are parsed", collectParam, {})
    .option("--name <name>", "a name for the batch")
    .option("--zip <file>", "when it ends, save the ZIP of the outputs here")
    .option("--no-wait", "start it and print its id without following it")
    .action(async (tool: string, files: string[], _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<BatchOptions>();
      const ctx = await context(o);
      const { created, last } = await withInterrupt(async (signal) => {
        const fileIds = await fileIdsOf(ctx, files, signal);
        const created = await ctx.client.batches.create({ type: tool, fileIds, params: o.param, name: o.name });
        ctx.note(`batch ${created.batchId} started (${created.credits} credits)`);
        if (!o.wait) return { created, last: null };
        const bar = batchProgress(ctx, created.batchId);
        try {
          return { created, last: await ctx.client.batches.waitFor(created.batchId, { signal, onProgress: (p) => bar.update(p) }) };
        } finally {
          bar.stop();
        }
      });
      const zip = last && o.zip && last.done > 0 ? await saveDownload(await ctx.client.batches.zip(created.batchId), o.zip) : null;
      if (o.zip && last && last.done === 0) ctx.note("no item produced an output: no ZIP written");
      const failed = last && last.failed > 0 ? (await ctx.client.batches.items(created.batchId)).filter((i) => i.status === "failed") : [];
      ctx.print({ ...created, progress: last, zip, failedItems: failed }, () => [
        last ? `${created.batchId}: ${last.status}, ${last.done} of ${last.total} done, ${last.failed} failed` : created.batchId,
        ...failed.map((i) => `  failed: ${i.filename ?? i.fileId}: ${i.errorCode ?? "FAILED"} ${i.error ?? ""}`.trimEnd()),
        ...(zip ? [`saved ${zip}`] : []),
      ]);
      if (last && (last.status !== "completed" || last.failed > 0)) throw new FailedWork("BATCH_FAILED", `${last.failed} of ${last.total} items failed`);
    });
}
