/**
 * A host folder as a file system of the ffmpeg core, for the server's job workers. @ffmpeg/core
 * 0.12 is built with MEMFS and WORKERFS only (its glue's `FS.filesystems`; no NODEFS or
 * NODERAWFS), and WORKERFS reads through FileReaderSync, which Bun's workers lack, and cannot
 * write. So a folder mounted with this type is read and written on the host's disk through
 * node:fs a piece at a time, as ffmpeg asks for it, and neither the input nor the output is held
 * in the WASM heap. Only what ffmpeg does to files is here: look up, create, stat, truncate, read,
 * write, seek, list, remove, rename.
 *
 * No host file stays open between calls (each read or write opens, does its piece and closes):
 * the host ends a job by terminating its worker, even in the middle of ffmpeg's run, and a
 * descriptor left open there would belong to the server's process for good. Every operation is a
 * host call of the job's file ledgers (runtime/file-ledger.ts), so the worker is never terminated
 * inside one, and once stopped it touches nothing more.
 *
 * Loaded by the job worker only when the host mounts a folder; browsers never load it.
 */
import { asHostCall } from "../../runtime/file-ledger";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmdirSync, truncateSync, unlinkSync, writeFileSync, writeSync } from "node:fs";

/** The slice of an Emscripten file-system node this type uses. */
interface FsNode {
  name: string;
  mode: number;
  parent: FsNode;
  mount: { opts: { root: string } };
  node_ops: object;
  stream_ops: object;
}

interface FsStream {
  node: FsNode;
  flags: number;
  position: number;
}

/** The slice of the core's `FS` object this type uses. */
export interface CoreFs {
  createNode(parent: FsNode | null, name: string, mode: number, rdev: number): FsNode;
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  ErrnoError: new (errno: number) => Error;
}

/** Emscripten's errno numbers (WASI's) for the host's error codes ffmpeg may meet. */
const ERRNO: Record<string, number> = { EACCES: 2, EBADF: 8, EEXIST: 20, EINVAL: 28, EIO: 29, EISDIR: 31, ENOENT: 44, ENOSPC: 51, ENOTDIR: 54, ENOTEMPTY: 55, EPERM: 63, EXDEV: 75 };
const EINVAL = 28;
const EPERM = 63;
const SEEK_CUR = 1;
const SEEK_END = 2;

/**
 * The file-system type to mount with `FS.mount(type, { root: hostFolder }, mountpoint)`;
 * each file call is a host call of `ledgers` (the session's, and its pool worker's on the server).
 */
export function hostFolderFs(FS: CoreFs, ledgers: Int32Array[]) {
  /**
   * A host call, counted in the job's ledgers and refused (EIO) once the host stops the job: after
   * that the worker touches no host file, not even a path. The host's error becomes the core's
   * (ffmpeg then sees ENOENT, ENOSPC...).
   */
  const host = <T>(call: () => T): T =>
    asHostCall(
      ledgers,
      () => {
        try {
          return call();
        } catch (err) {
          const code = (err as { code?: string }).code;
          throw new FS.ErrnoError(ERRNO[code ?? ""] ?? ERRNO.EIO);
        }
      },
      () => {
        throw new FS.ErrnoError(ERRNO.EIO);
      },
    );

  /** The node's host path: its names up to the mount's root, under the mounted host folder. */
  const realPath = (node: FsNode): string => {
    const parts: string[] = [];
    for (let at = node; at.parent !== at; at = at.parent) parts.unshift(at.name);
    return [node.mount.opts.root, ...parts].join("/");
  };

  const createNode = (parent: FsNode | null, name: string, mode: number): FsNode => {
    const node = FS.createNode(parent, name, mode, 0);
    node.node_ops = nodeOps;
    node.stream_ops = streamOps;
    return node;
  };

  /** A file opened for one call and closed again (see the module's comment), in one host call. */
  const withFile = <T>(stream: FsStream, use: (fd: number) => T): T =>
    host(() => {
      const fd = openSync(realPath(stream.node), (stream.flags & 3) === 0 ? constants.O_RDONLY : constants.O_RDWR);
      try {
        return use(fd);
      } finally {
        closeSync(fd);
      }
    });

  const nodeOps = {
    getattr(node: FsNode) {
      const st = host(() => lstatSync(realPath(node)));
      return { dev: 1, ino: st.ino, mode: st.mode, nlink: st.nlink, uid: 0, gid: 0, rdev: 0, size: st.size, atime: st.atime, mtime: st.mtime, ctime: st.ctime, blksize: 4096, blocks: Math.ceil(st.size / 4096) };
    },
    setattr(node: FsNode, attr: { size?: number }) {
      // Modes and times are left to the host; only a truncation changes the file.
      if (attr.size !== undefined) host(() => truncateSync(realPath(node), attr.size));
    },
    lookup(parent: FsNode, name: string) {
      const st = host(() => lstatSync(`${realPath(parent)}/${name}`));
      return createNode(parent, name, st.mode);
    },
    mknod(parent: FsNode, name: string, mode: number) {
      const path = `${realPath(parent)}/${name}`;
      host(() => (FS.isDir(mode) ? mkdirSync(path) : writeFileSync(path, "", { flag: "wx" })));
      return createNode(parent, name, mode);
    },
    rename(node: FsNode, newDir: FsNode, newName: string) {
      host(() => renameSync(realPath(node), `${realPath(newDir)}/${newName}`));
      node.name = newName;
      node.parent = newDir;
    },
    unlink(parent: FsNode, name: string) {
      host(() => unlinkSync(`${realPath(parent)}/${name}`));
    },
    rmdir(parent: FsNode, name: string) {
      host(() => rmdirSync(`${realPath(parent)}/${name}`));
    },
    readdir(node: FsNode) {
      return [".", "..", ...host(() => readdirSync(realPath(node)))];
    },
    symlink() {
      throw new FS.ErrnoError(EPERM);
    },
  };

  const streamOps = {
    read(stream: FsStream, buffer: Int8Array, offset: number, length: number, position: number) {
      if (length === 0) return 0;
      return withFile(stream, (fd) => readSync(fd, buffer, offset, length, position));
    },
    write(stream: FsStream, buffer: Int8Array, offset: number, length: number, position: number) {
      if (length === 0) return 0;
      return withFile(stream, (fd) => writeSync(fd, buffer, offset, length, position));
    },
    llseek(stream: FsStream, offset: number, whence: number) {
      let position = offset;
      if (whence === SEEK_CUR) position += stream.position;
      else if (whence === SEEK_END && FS.isFile(stream.node.mode)) position += withFile(stream, (fd) => fstatSync(fd).size);
      if (position < 0) throw new FS.ErrnoError(EINVAL);
      return position;
    },
  };

  return {
    mount(mount: { opts: { root: string } }) {
      const st = host(() => lstatSync(mount.opts.root));
      if (!FS.isDir(st.mode)) throw new FS.ErrnoError(ERRNO.ENOTDIR);
      return createNode(null, "/", st.mode);
    },
  };
}
