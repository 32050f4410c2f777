/** run <tool> <files...>: one tool over the files, outputs saved with -o. */
import { downloadFile } from "@vektor/shared/client/node";
import type { Job } from "@vektor/shared/schemas/job";
import type { Command } from "commander";
import { mkdir } from "node:fs/promises";
import { context, FailedWork, type Context, type GlobalOptions } from "../context";
import { collectParam, fileIdsOf } from "../inputs";
import { withInterrupt } from "../interrupt";
import { sizeText } from "./files";

interface RunOptions extends GlobalOptions {
  param: Record<string, unknown>;
  output?: string;
}

/** Saves a finished job's outputs into `dir`; answers the paths. */
async function saveOutputs(ctx: Context, job: Job, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const out of job.outputs) paths.push(await downloadFile(ctx.client, out.fileId, dir));
  return paths;
}

export function runCommand(program: Command): void {
  program
    .command("run <tool> <files...>")
    .description("run a tool (e.g. pdf.compress) on files (paths to upload, or file ids) and wait for the result")
    .option("-p, --param <key=value>", "a tool parameter (repeat it); JSON values are parsed", collectParam, {})
    .option("-o, --output <dir>", "save the outputs into this folder")
    .action(async (tool: string, files: string[], _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<RunOptions>();
      const ctx = await context(o);
      let shown = "";
      const onUpdate = (j: Job) => {
        const line = `${j.jobId}: ${j.status} ${j.progress}%`;
        if (line !== shown) ctx.note((shown = line));
      };
      const job = await withInterrupt(async (signal) => {
        const fileIds = await fileIdsOf(ctx, files, signal);
        // A key per invocation: a retried request (network hiccup) never runs the tool twice.
        return ctx.client.tools.run(tool, fileIds, { params: o.param, signal, idempotencyKey: crypto.randomUUID(), onUpdate });
      });
      const saved = o.output && job.status === "succeeded" ? await saveOutputs(ctx, job, o.output) : [];
      ctx.print({ ...job, saved }, () => [
        `${job.jobId}: ${job.status}`,
        ...job.outputs.map((f) => `  ${f.fileId}  ${f.filename}  ${sizeText(f.size)}`),
        ...saved.map((p) => `saved ${p}`),
      ]);
      if (job.status !== "succeeded") throw new FailedWork(job.errorCode ?? job.status.toUpperCase(), job.error ?? `the job ${job.status}`);
    });
}
