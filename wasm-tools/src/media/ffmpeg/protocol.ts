/**
 * Messages between a media tool (host side, `session.ts`) and the job worker that owns one fresh
 * ffmpeg core instance (`job-worker.ts`). Buffers are transferred, not copied.
 */

/** Host -> job worker. `id` pairs each request with its reply. */
export type JobRequest =
  | { id: number; type: "init"; module?: WebAssembly.Module }
  | { id: number; type: "write"; name: string; bytes: Uint8Array }
  /** The host folder `host` mounted at `at` (host-fs.ts; the server's job workers), each file call a host call of `ledgers` (runtime/file-ledger.ts). */
  | { id: number; type: "mount"; host: string; at: string; ledgers: Int32Array[] }
  /** The browser's File or Blob mounted at `at` as `name` (WORKERFS: read a piece at a time, never copied in). */
  | { id: number; type: "mountBlob"; blob: Blob; name: string; at: string }
  /** `name` made a link to `target` (a host file in a mounted folder, under the name ffmpeg is given). */
  | { id: number; type: "link"; target: string; name: string }
  /** The size of `name`, or none when there is no such file. */
  | { id: number; type: "size"; name: string }
  | { id: number; type: "exec"; args: string[] }
  | { id: number; type: "read"; name: string };

/** Job worker -> host: a reply to request `id`, or one line of ffmpeg's log. */
export type JobMessage =
  | { type: "reply"; id: number; ok: true; code?: number; bytes?: Uint8Array; size?: number }
  | { type: "reply"; id: number; ok: false; message: string }
  | { type: "log"; line: string };
