/**
 * The engine downloads of the current run on this device, as the tool worker reports them
 * (workers/downloads.ts): kept until the next run starts, so the page can say what the first use
 * of a family fetched. A tiny external store read with useSyncExternalStore.
 */
import { useSyncExternalStore } from "react";
import type { EngineDownload } from "../workers/downloads";

let downloads: EngineDownload[] = [];
const listeners = new Set<() => void>();

function publish(next: EngineDownload[]): void {
  downloads = next;
  for (const listener of listeners) listener();
}

export function reportEngineDownload(download: EngineDownload): void {
  publish([...downloads.filter((d) => d.name !== download.name), download]);
}

/** A run starts: what earlier runs fetched is no longer news. */
export function clearEngineDownloads(): void {
  if (downloads.length) publish([]);
}

export function useEngineDownloads(): EngineDownload[] {
  return useSyncExternalStore(
    (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    () => downloads,
  );
}

/** The downloads summed: bytes so far, the engine's size and what travelled (null when unknown), and whether all ended. */
export function sumDownloads(list: EngineDownload[]): { loaded: number; total: number | null; wire: number | null; done: boolean } {
  const sum = (pick: (d: EngineDownload) => number | null) => (list.every((d) => pick(d) !== null) ? list.reduce((n, d) => n + pick(d)!, 0) : null);
  return { loaded: list.reduce((n, d) => n + d.loaded, 0), total: sum((d) => d.total), wire: sum((d) => d.wire), done: list.every((d) => d.done) };
}
