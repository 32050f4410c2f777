/**
 * Independent checkers installed from the OS (qpdf, poppler-utils). CI installs them; on a
 * machine without them the dependent tests are skipped with a loud message, never passed.
 */
import { withTempFile } from "./fixtures";

/** True when `name` is on PATH. */
export function hasBinary(name: string): boolean {
  return Bun.which(name) !== null;
}

const warned = new Set<string>();

/** `hasBinary`, printing a loud warning once when the binary is missing. */
export function requireBinary(name: string, pkg: string): boolean {
  if (hasBinary(name)) return true;
  if (!warned.has(name)) {
    warned.add(name);
    console.warn(`\n!!! ${name} is not installed: tests that check output with it are SKIPPED. Install: apt-get install -y ${pkg}\n`);
  }
  return false;
}

/** Runs a command; returns exit code and output. */
export function runCli(cmd: string[]): { code: number; stdout: string; stderr: string } {
  const result = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** `qpdf --check` on PDF bytes: exit 0 means no syntax or stream errors (3 = warnings only). */
export function qpdfCheck(bytes: Uint8Array): { code: number; output: string } {
  return withTempFile("check.pdf", bytes, (path) => {
    const r = runCli(["qpdf", "--check", path]);
    return { code: r.code, output: r.stdout + r.stderr };
  });
}

/** `pdfinfo` fields (Pages, Title, Page size, ...) of PDF bytes; `code` non-zero when poppler could not read it. */
export function pdfinfo(bytes: Uint8Array, extra: string[] = []): { code: number; fields: Record<string, string>; output: string } {
  return withTempFile("info.pdf", bytes, (path) => {
    const r = runCli(["pdfinfo", ...extra, path]);
    const fields: Record<string, string> = {};
    for (const line of r.stdout.split("\n")) {
      const m = /^([^:]+):\s*(.*)$/.exec(line);
      if (m) fields[m[1].trim()] = m[2].trim();
    }
    return { code: r.code, fields, output: r.stdout + r.stderr };
  });
}

/** `pdftotext -layout`-free plain text of PDF bytes (poppler's own text extraction). */
export function pdftotext(bytes: Uint8Array): string {
  return withTempFile("text.pdf", bytes, (path) => runCli(["pdftotext", "-enc", "UTF-8", path, "-"]).stdout);
}
