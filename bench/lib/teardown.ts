/**
 * A benchmark's way out, said once: its scratch folder, removed at exit whatever happened, and
 * the steps that stop what it started. The steps run newest first (a cluster before its
 * database, the folder last), each once, at the bench's end (`run()`) or on Ctrl-C / SIGTERM
 * (then exit 130). A failing step is passed over: the bench is leaving anyway.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

export class Teardown {
  private readonly steps: (() => unknown)[] = [];
  /** The scratch folder, `vektor-bench-<name>-...` under `base`. */
  readonly dir: string;

  constructor(name: string, base: string) {
    const dir = mkdtempSync(join(base, `vektor-bench-${name}-`));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    process.once("exit", remove);
    this.dir = dir;
    this.steps.push(remove);
    for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => this.run().finally(() => process.exit(130)));
  }

  /** A step for the way out: it runs before the steps added earlier. */
  add(step: () => unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (let step = this.steps.pop(); step; step = this.steps.pop()) await Promise.resolve().then(step).catch(() => {});
  }
}
