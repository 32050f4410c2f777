/**
 * GIS outputs on disk in the browser: written by GDAL into files of the Origin Private File System
 * through FileSystemSyncAccessHandle (dedicated workers, Chromium and others), handed back as the
 * disk-backed File that the OPFS file handle gives, so a big conversion's output grows neither
 * the worker's memory nor the page's.
 *
 * GDAL's file calls are synchronous and opening a sync access handle is not, so the handles are
 * opened before the run, for the file names the tool will write (known from its output naming),
 * and a small Emscripten file system is mounted at the output folder: a file created there under
 * one of those names reads and writes through its handle, at any position (SQLite and shapefile
 * writers seek back); any other file (SQLite's -journal, a driver's temporary file) is an ordinary
 * in-memory MEMFS file. The host gives the folder (RunContext.outputFolder) and removes it when
 * the outputs are no longer needed; files not handed out are deleted here at the operation's end.
 */
import type { GdalModule } from "./engine";

/** FileSystemSyncAccessHandle, as far as this uses it (TypeScript's DOM library does not have it yet). */
interface SyncHandle {
  read(into: Uint8Array, options: { at: number }): number;
  write(from: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  getSize(): number;
  flush(): void;
  close(): void;
}

/** Writes are handed to a sync handle in pieces of at least this much where GDAL writes consecutively. */
const WRITE_BUFFER = 1024 * 1024;

/**
 * A sync access handle whose consecutive writes are gathered into one buffer (outside the WASM
 * heap, of a fixed size) and handed over in one call. GDAL writes 1 KB at a time through stdio
 * (GeoJSON, CSV) and SQLite a page at a time, and in Chromium here each call on the handle cost
 * about 0.7 ms: a 100 MB GeoJSON to GeoPackage made 20,660 writes that took 14 s. Any other call
 * (a read, the size, a truncation, flush, close) writes what is gathered first, so every call
 * sees the file as written; a failed write of what was gathered is reported by that call.
 */
class GatheredWrites implements SyncHandle {
  private readonly buffer = new Uint8Array(WRITE_BUFFER);
  private at = 0;
  private length = 0;
  /** A write was refused for the origin's quota (drivers report it as anything from EIO to a "malformed" database). */
  full = false;

  constructor(private readonly handle: SyncHandle) {}

  write(from: Uint8Array, { at }: { at: number }): number {
    if (this.length > 0 && at === this.at + this.length && this.length + from.length <= this.buffer.length) {
      this.buffer.set(from, this.length);
      this.length += from.length;
      return from.length;
    }
    this.writeGathered();
    if (from.length >= this.buffer.length) return this.handOver(from, at);
    this.buffer.set(from);
    this.at = at;
    this.length = from.length;
    return from.length;
  }

  read(into: Uint8Array, options: { at: number }): number {
    this.writeGathered();
    return this.handle.read(into, options);
  }

  truncate(size: number): void {
    this.writeGathered();
    this.handle.truncate(size);
  }

  getSize(): number {
    this.writeGathered();
    return this.handle.getSize();
  }

  flush(): void {
    this.writeGathered();
    this.handle.flush();
  }

  close(): void {
    this.writeGathered();
    this.handle.close();
  }

  private writeGathered(): void {
    const length = this.length;
    this.length = 0;
    for (let done = 0; done < length; ) done += this.handOver(this.buffer.subarray(done, length), this.at + done);
  }

  private handOver(from: Uint8Array, at: number): number {
    try {
      return this.handle.write(from, { at });
    } catch (err) {
      if ((err as DOMException)?.name === "QuotaExceededError") this.full = true;
      throw err;
    }
  }
}

type SyncFileHandle = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncHandle> };

/** One pre-opened output file. */
interface Slot {
  name: string;
  file: SyncFileHandle;
  sync: GatheredWrites;
  /** The FS node writing through it now, if any. */
  node?: FsNode;
  closed: boolean;
  /** Handed back as a File: kept when the operation ends. */
  kept: boolean;
}

/** An Emscripten FS node, as this file system sees it (MEMFS's fields plus the slot it writes through). */
interface FsNode {
  mode: number;
  name: string;
  parent: FsNode;
  node_ops: object;
  stream_ops: object;
  contents: unknown;
  usedBytes: number;
  slot?: Slot;
}

interface Stream {
  node: FsNode;
  position: number;
}

/** The parts of Emscripten's FS and MEMFS this builds on. */
interface Fs {
  isFile(mode: number): boolean;
  lookupNode(parent: FsNode, name: string): FsNode;
  lookupPath(path: string): { node: FsNode };
  ErrnoError: new (errno: number) => Error;
}
interface MemFs {
  mount(mount: unknown): FsNode;
  getFileDataAsTypedArray(node: FsNode): Uint8Array;
  node_ops: Record<"getattr" | "setattr" | "mknod" | "rename" | "unlink", (...args: never[]) => unknown>;
  ops_table: { dir: { node: object }; file: { node: object; stream: object } };
}

/** Emscripten's errno values (its own numbering). */
const EIO = 29;
const ENOSPC = 51;
const EINVAL = 28;
const ENODEV = 43;

/** Whether this host has sync access handles (a dedicated worker with OPFS), without opening anything. */
function hasSyncHandles(): boolean {
  return typeof (globalThis as { FileSystemSyncAccessHandle?: unknown }).FileSystemSyncAccessHandle === "function";
}

/** Output files on disk for one operation. */
export class DiskOutputs {
  private constructor(
    private readonly folder: FileSystemDirectoryHandle,
    private readonly slots: Map<string, Slot>,
  ) {}

  /**
   * Opens a sync access handle on a new file in `folder` for each of `names`; null where there is
   * no folder or no sync handles (another browser, Node), or opening failed (quota, a page that is
   * not a secure context): the caller writes in memory then, as before.
   */
  static async open(folder: FileSystemDirectoryHandle | undefined, names: string[]): Promise<DiskOutputs | null> {
    if (!folder || !hasSyncHandles() || names.length === 0) return null;
    const slots = new Map<string, Slot>();
    try {
      for (const name of new Set(names)) {
        const file = (await folder.getFileHandle(name, { create: true })) as SyncFileHandle;
        if (!file.createSyncAccessHandle) throw new Error("no createSyncAccessHandle");
        slots.set(name, { name, file, sync: new GatheredWrites(await file.createSyncAccessHandle()), closed: false, kept: false });
      }
      return new DiskOutputs(folder, slots);
    } catch {
      await new DiskOutputs(folder, slots).release(true);
      return null;
    }
  }

  /** This file system, built on `m`'s MEMFS, for Emscripten's FS.mount. */
  fileSystem(m: GdalModule): object {
    const fs = m.FS as unknown as Fs;
    const memfs = m.MEMFS as unknown as MemFs;
    const ops = slotOps(fs, memfs);
    const slots = this.slots;
    const bindable = (name: string) => {
      const slot = slots.get(name);
      return slot && !slot.node && !slot.closed ? slot : undefined;
    };
    let root: FsNode | undefined;
    const dirOps = {
      ...memfs.ops_table.dir.node,
      mknod(parent: FsNode, name: string, mode: number, dev: number): FsNode {
        const node = (memfs.node_ops.mknod as (p: FsNode, n: string, m: number, d: number) => FsNode)(parent, name, mode, dev);
        const slot = fs.isFile(mode) ? bindable(name) : undefined;
        if (slot) ops.bind(node, slot, true);
        return node;
      },
      unlink(parent: FsNode, name: string): void {
        ops.unbind(fs.lookupNode(parent, name));
        (memfs.node_ops.unlink as (p: FsNode, n: string) => void)(parent, name);
      },
      // A driver that writes a temporary file and renames it to the output's name: its bytes move onto the disk then.
      rename(node: FsNode, dir: FsNode, name: string): void {
        let replaced: FsNode | undefined;
        try {
          replaced = fs.lookupNode(dir, name);
        } catch {
          replaced = undefined;
        }
        if (replaced && replaced !== node) ops.unbind(replaced);
        (memfs.node_ops.rename as (o: FsNode, d: FsNode, n: string) => void)(node, dir, name);
        const slot = !node.slot && fs.isFile(node.mode) && dir === root ? bindable(name) : undefined;
        if (slot) ops.moveOnto(node, slot);
      },
    };
    return {
      mount(mount: unknown): FsNode {
        root = memfs.mount(mount);
        root.node_ops = dirOps;
        return root;
      },
    };
  }

  /**
   * The output at `fullPath` as a File on disk (its handle flushed and closed; the File is read
   * from the disk when the page reads it), or null when that file was written in memory.
   */
  async file(m: GdalModule, fullPath: string): Promise<File | null> {
    const slot = (m.FS as unknown as Fs).lookupPath(fullPath).node.slot;
    if (!slot) return null;
    closeSlot(slot);
    slot.kept = true;
    return slot.file.getFile();
  }

  /** Whether a write was refused because the origin's storage quota is used up. */
  get full(): boolean {
    return [...this.slots.values()].some((slot) => slot.sync.full);
  }

  /** End of the operation: every handle closed; files not handed out (all of them after a failure) deleted. */
  async release(failed: boolean): Promise<void> {
    for (const slot of this.slots.values()) {
      closeSlot(slot);
      if (failed || !slot.kept) await this.folder.removeEntry(slot.name).catch(() => undefined);
    }
  }
}

function closeSlot(slot: Slot): void {
  if (slot.closed) return;
  slot.closed = true;
  slot.sync.flush();
  slot.sync.close();
}

/** Node and stream operations of a file that writes through its slot's sync handle, and how a node gets or loses one. */
function slotOps(fs: Fs, memfs: MemFs) {
  /** A failed handle call as an errno GDAL can report ("No space left" for a full quota), not a crash of the engine. */
  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (err) {
      if (err instanceof fs.ErrnoError) throw err;
      throw new fs.ErrnoError((err as DOMException)?.name === "QuotaExceededError" ? ENOSPC : EIO);
    }
  };
  const sync = (node: FsNode) => node.slot!.sync;
  const nodeOps = {
    getattr(node: FsNode) {
      const attr = (memfs.node_ops.getattr as (n: FsNode) => { size: number; blocks: number; blksize: number })(node);
      attr.size = guarded(() => sync(node).getSize());
      attr.blocks = Math.ceil(attr.size / attr.blksize);
      return attr;
    },
    setattr(node: FsNode, attr: { size?: number }) {
      if (attr.size !== undefined) guarded(() => sync(node).truncate(attr.size!));
      (memfs.node_ops.setattr as (n: FsNode, a: object) => void)(node, { ...attr, size: undefined });
    },
  };
  const streamOps = {
    read: (stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number) =>
      guarded(() => sync(stream.node).read(buffer.subarray(offset, offset + length), { at: position })),
    write: (stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number) =>
      guarded(() => sync(stream.node).write(buffer.subarray(offset, offset + length), { at: position })),
    llseek(stream: Stream, offset: number, whence: number): number {
      const base = whence === 1 ? stream.position : whence === 2 ? guarded(() => sync(stream.node).getSize()) : 0;
      if (base + offset < 0) throw new fs.ErrnoError(EINVAL);
      return base + offset;
    },
    allocate(stream: Stream, offset: number, length: number): void {
      guarded(() => {
        const handle = sync(stream.node);
        if (handle.getSize() < offset + length) handle.truncate(offset + length);
      });
    },
    // Nothing here maps its output files (SQLite's memory mapping is off by default).
    mmap(): never {
      throw new fs.ErrnoError(ENODEV);
    },
  };
  return {
    /** `node` writes through `slot` from now on (emptied when it is a new file). */
    bind(node: FsNode, slot: Slot, empty: boolean): void {
      if (empty) guarded(() => slot.sync.truncate(0));
      Object.assign(node, { node_ops: nodeOps, stream_ops: streamOps, slot, contents: null, usedBytes: 0 });
      slot.node = node;
    },
    /** A memory file renamed to a slot's name: its bytes written through the handle, then the node bound to it. */
    moveOnto(node: FsNode, slot: Slot): void {
      const bytes = memfs.getFileDataAsTypedArray(node);
      guarded(() => {
        slot.sync.truncate(0);
        slot.sync.write(bytes, { at: 0 });
      });
      this.bind(node, slot, false);
    },
    /** A removed or replaced node lets its slot go (the slot may be written again under its name); the node is an empty memory file then. */
    unbind(node: FsNode): void {
      if (!node.slot) return;
      node.slot.node = undefined;
      Object.assign(node, { node_ops: memfs.ops_table.file.node, stream_ops: memfs.ops_table.file.stream, slot: undefined, contents: null, usedBytes: 0 });
    },
  };
}
