/**
 * File access for io.hostFiles tools that read and write host files themselves (not through an
 * engine's mounted file system, as GDAL does): the host installs it (the server's tool workers,
 * with node:fs), and a run reads `ToolInput.path` and writes into `RunContext.outputDir` through
 * it. Browsers pass no paths and install nothing. An injected object, not an import, keeps the
 * run modules free of Node built-ins so they still bundle for a browser worker.
 */
import { ToolError } from "@vektor/shared/tools/manifest";

/**
 * A host file read at any position. (The server's implementation holds no descriptor between
 * calls: a worker terminated mid-run must leave none open in the process.)
 */
export interface HostReadFile {
  /** Fills `into` from `position`; answers how many bytes were read (fewer at the end of the file). */
  read(into: Uint8Array, position: number): Promise<number>;
  close(): Promise<void>;
}

/** A host file being written: appended to, or patched at a position already written. */
export interface HostWriteFile {
  write(bytes: Uint8Array, position?: number): Promise<void>;
  close(): Promise<void>;
}

export interface HostFileAccess {
  openRead(path: string): Promise<HostReadFile>;
  /**
   * Fills `into` from `position` of the file at `path` synchronously, opening and closing it in
   * the call; answers how many bytes were read. For engines that call back for their input and
   * wait for it (mupdf's streams). No file stays open, so a worker ended mid-run leaves none.
   */
  readAtSync?(path: string, into: Uint8Array, position: number): number;
  /** Creates (or truncates) `name` in the folder `dir`; answers the file and its full path. */
  create(dir: string, name: string): Promise<{ file: HostWriteFile; path: string }>;
  /**
   * Writes `bytes` at `position` of the file at `path` (one `create` made) synchronously, opening
   * and closing it in the call. For writers called back from inside an engine's synchronous loop
   * (web-ifc's mesh stream), which cannot wait for a promise.
   */
  writeAtSync?(path: string, bytes: Uint8Array, position: number): void;
  /** Removes the file at `path` (a temporary file, an output a failed run left); nothing when it is not there. */
  remove(path: string): Promise<void>;
}

let access: HostFileAccess | undefined;

/** Install the host's file access (before the first run that gets a path). */
export function setHostFileAccess(next: HostFileAccess | undefined): void {
  access = next;
}

/** The host's file access; TOOL_FAILED when a host passed a path but installed none. */
export function hostFileAccess(): HostFileAccess {
  if (!access) throw new ToolError("TOOL_FAILED", "The host passed a file path but offers no file access (setHostFileAccess)");
  return access;
}
