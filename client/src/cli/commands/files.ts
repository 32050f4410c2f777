/** upload, files, download. */
import { saveDownload } from "@vektor/shared/client/node";
import type { ConfirmResult } from "@vektor/shared/schemas/file";
import type { Command } from "commander";
import { context, type GlobalOptions } from "../context";
import { checkFileArgs, uploadOne } from "../inputs";
import { withInterrupt } from "../interrupt";

export const sizeText = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`);

export function fileCommands(program: Command): void {
  program
    .command("upload <files...>")
    .description("upload files (large ones in parts; an interrupted upload resumes when run again)")
    .action(async (paths: string[], _o, cmd: Command) => {
      const ctx = await context(cmd.optsWithGlobals<GlobalOptions>());
      checkFileArgs(paths);
      const done: ConfirmResult[] = [];
      await withInterrupt(async (signal) => {
        for (const p of paths) done.push(await uploadOne(ctx, p, signal));
      });
      ctx.print(done, () => done.map((f) => `${f.fileId}  ${f.filename}  ${sizeText(f.size)}  ${f.format ?? f.mime}`));
    });
  program
    .command("files")
    .description("your files, newest first")
    .option("--limit <n>", "how many (1..200)", "50")
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { limit: string }>();
      const ctx = await context(o);
      const page = await ctx.client.files.list({ limit: Number(o.limit) });
      ctx.print(page.items, () => (page.items.length ? page.items.map((f) => `${f.fileId}  ${f.filename}  ${sizeText(f.size)}  ${f.status}  ${f.createdAt}`) : "no files"));
    });
  program
    .command("download <fileId>")
    .description("download a file (to the current folder under its own name, or -o)")
    .option("-o, --output <path>", "file or folder to write", ".")
    .action(async (fileId: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { output: string }>();
      const ctx = await context(o);
      const d = await ctx.client.files.open(fileId);
      const path = await saveDownload(d, o.output, fileId);
      ctx.print({ fileId, path }, () => `saved ${path}`);
    });
}
