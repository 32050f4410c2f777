/** Native (Debian) tools for the comparisons: install when missing, and run one command timed. */
import { spawnSync } from "node:child_process";

export function have(cmd: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
}

let updated = false;

/** apt-get install (with one apt-get update first); root or sudo. Returns false when it failed. */
export function aptInstall(packages: string[]): boolean {
  if (packages.length === 0) return true;
  console.log(`[bench] installing from Debian: ${packages.join(" ")}`);
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const run = (args: string[]) =>
    spawnSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (!updated) {
    run(["apt-get", "update", "-qq"]);
    updated = true;
  }
  return run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", ...packages]).status === 0;
}

/** Installs the Debian packages of the commands that are missing: { command: package }. */
export function ensureCommands(wanted: Record<string, string>): string[] {
  const missing = Object.entries(wanted).filter(([cmd]) => !have(cmd));
  if (missing.length) aptInstall([...new Set(missing.map(([, pkg]) => pkg))]);
  return Object.keys(wanted).filter((cmd) => !have(cmd));
}

/** Runs `argv` (stdout dropped, stderr kept for the error) and returns its wall time in ms; throws on a non-zero exit. */
export async function timeCommand(argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<number> {
  const t0 = performance.now();
  const proc = Bun.spawn(argv, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdout: "ignore", stderr: "pipe" });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${argv.join(" ")} exited with ${code}: ${err.trim().split("\n").slice(-3).join(" | ")}`);
  return ms;
}
