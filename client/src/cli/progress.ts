/**
 * Progress on stderr: a live bar (cli-progress) on a terminal, one plain line per change
 * otherwise (logs, CI), nothing with --json.
 */
import type { BatchProgress } from "@vektor/shared/schemas/batch";
import cliProgress from "cli-progress";
import type { Context } from "./context";

const tty = () => Boolean(process.stderr.isTTY);

export function uploadProgress(ctx: Context, label: string) {
  const bar = !ctx.json && tty() ? new cliProgress.SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total} bytes`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic) : null;
  let started = false;
  return {
    update: (sent: number, total: number) => {
      if (!bar) return;
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(sent);
    },
    stop: () => {
      if (started) bar?.stop();
    },
    done(line: string) {
      this.stop();
      ctx.note(line);
    },
  };
}

export function batchProgress(ctx: Context, label: string) {
  const bar = !ctx.json && tty() ? new cliProgress.SingleBar({ format: `${label} [{bar}] {value}/{total} done, {failed} failed, {status}`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic) : null;
  let started = false;
  return {
    update(p: BatchProgress) {
      if (!bar) return ctx.note(`progress: ${p.done + p.failed}/${p.total} (${p.done} done, ${p.failed} failed) ${p.status}`);
      if (!started) bar.start(p.total, 0, { failed: 0, status: p.status });
      started = true;
      bar.update(p.done + p.failed, { failed: p.failed, status: p.status });
    },
    stop() {
      if (started) bar?.stop();
    },
  };
}
