/**
 * A small real filesystem for full-disk tests: a tmpfs of a few MB mounted on a fresh folder
 * (root may mount one; elsewhere the tests are skipped and say why), filled on demand.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, statfsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface SmallDisk {
  path: string;
  /** Why it could not be mounted, or null. */
  skipReason: string | null;
  freeBytes(): number;
  /** Fills the disk, up to `leave` bytes (to the last block when 0), with a file; answers its path. */
  fill(leave?: number): string;
  unmount(): void;
}

export function smallDisk(path: string, megabytes: number): SmallDisk {
  mkdirSync(path, { recursive: true });
  const skipReason = mount(path, megabytes);
  const freeBytes = () => {
    const s = statfsSync(path);
    return s.bavail * s.bsize;
  };
  return {
    path,
    skipReason,
    freeBytes,
    fill: (leave = 0) => fill(path, freeBytes, leave),
    unmount: () => void (skipReason === null && spawnSync("umount", ["-l", path])),
  };
}

function mount(path: string, megabytes: number): string | null {
  if (process.platform !== "linux") return "tmpfs mounts need Linux";
  const res = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", path], { encoding: "utf8" });
  return res.status === 0 ? null : `cannot mount a tmpfs here (${(res.stderr || res.error?.message || "").trim()}): run the tests as root to include the full-disk tests`;
}

function fill(path: string, freeBytes: () => number, leave: number): string {
  const filler = join(path, "filler");
  writeFileSync(filler, new Uint8Array(0));
  const chunk = new Uint8Array(64 * 1024);
  try {
    while (freeBytes() > leave + chunk.length) writeFileSync(filler, chunk, { flag: "a" });
    if (leave === 0) for (;;) writeFileSync(filler, chunk.subarray(0, 4096), { flag: "a" });
  } catch (e) {
    if ((e as { code?: string }).code !== "ENOSPC") throw e;
  }
  return filler;
}
