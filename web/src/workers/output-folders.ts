/**
 * Where the tool worker writes outputs on disk (RunContext.outputFolder): the Origin Private File
 * System, in `tool-outputs/<page>/<run>/`. The page's results are Files read from there, so the
 * files must outlive the run, and the worker too (an idle or failed worker is terminated while the
 * page still offers what it made): each page holds a Web Lock named after its folder while it
 * lives, and a worker starting sweeps the folders whose lock nobody holds (pages closed or
 * reloaded). A failed or cancelled run's folder is removed at once. Where OPFS or Web Locks are
 * missing there is no folder and the tools return bytes, as before.
 */

const ROOT = "tool-outputs";
const LOCK_PREFIX = "vektor-tool-outputs:";

function locks(): LockManager | undefined {
  return (globalThis.navigator as Navigator | undefined)?.locks;
}

async function outputsRoot(): Promise<FileSystemDirectoryHandle | undefined> {
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (typeof storage?.getDirectory !== "function") return undefined;
  return (await storage.getDirectory()).getDirectoryHandle(ROOT, { create: true });
}

/**
 * The page's folder name, kept while the page lives (a Web Lock of that name held until it
 * unloads); undefined where there are no Web Locks or no OPFS, so nothing is written to disk.
 */
export function holdOutputSession(): string | undefined {
  const manager = locks();
  if (!manager || typeof navigator.storage?.getDirectory !== "function") return undefined;
  const session = crypto.randomUUID();
  void manager.request(`${LOCK_PREFIX}${session}`, () => new Promise<never>(() => {})).catch(() => undefined);
  return session;
}

/** The run's folder (made), in the worker; undefined without a page folder or OPFS. */
export async function runFolder(session: string | undefined, run: string): Promise<FileSystemDirectoryHandle | undefined> {
  if (!session) return undefined;
  try {
    const root = await outputsRoot();
    const page = await root?.getDirectoryHandle(session, { create: true });
    return await page?.getDirectoryHandle(run, { create: true });
  } catch {
    return undefined;
  }
}

/** Removes a run's folder and what is in it (a failed or cancelled run, or one that wrote nothing there); answers whether it is gone. */
export async function removeRunFolder(session: string | undefined, run: string): Promise<boolean> {
  if (!session) return true;
  try {
    const page = await (await outputsRoot())?.getDirectoryHandle(session);
    await page?.removeEntry(run, { recursive: true });
    return true;
  } catch (err) {
    // Gone already; else a file is still open in a worker being terminated.
    return (err as DOMException)?.name === "NotFoundError";
  }
}

/** Waits between tries to remove a stopped run's folder, in ms: a terminated worker lets go of its files a little later. */
const REMOVAL_TRIES_MS = [500, 1_000, 2_000, 4_000, 8_000];

/**
 * Removes a run's folder once the worker that wrote it has let go of its files (it was terminated
 * mid-run); a folder still held after the last try goes with the page's folder when the page does.
 */
export async function removeRunFolderSoon(session: string | undefined, run: string): Promise<void> {
  for (const wait of REMOVAL_TRIES_MS) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (await removeRunFolder(session, run)) return;
  }
}

/** Removes the folders of pages that are gone: those whose Web Lock nobody holds or waits for. */
export async function sweepOutputFolders(): Promise<void> {
  const manager = locks();
  if (!manager) return;
  try {
    const root = await outputsRoot();
    if (!root) return;
    const state = await manager.query();
    const live = new Set([...(state.held ?? []), ...(state.pending ?? [])].map((l) => l.name));
    const names: string[] = [];
    for await (const name of root.keys()) names.push(name);
    for (const name of names) {
      if (!live.has(`${LOCK_PREFIX}${name}`)) await root.removeEntry(name, { recursive: true }).catch(() => undefined);
    }
  } catch {
    // no OPFS here: nothing to sweep
  }
}
