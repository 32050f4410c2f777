/**
 * Messages between a media tool (host side, `session.ts`) and the job worker that owns one fresh
 * ffmpeg core instance (`job-worker.ts`). Buffers are transferred, not copied.
 */

/** Host -> job worker. `id` pairs each request with its reply. */
export type JobRequest =
  | { id: number; type: "init"; module?: WebAssembly.Module }
  | { id: number; type: "write"; name: string; bytes: Uint8Array }
  | { id: number; type: "exec"; args: string[] }
  | { id: number; type: "read"; name: string };

/** Job worker -> host: a reply to request `id`, or one line of ffmpeg's log. */
export type JobMessage =
  | { type: "reply"; id: number; ok: true; code?: number; bytes?: Uint8Array }
  | { type: "reply"; id: number; ok: false; message: string }
  | { type: "log"; line: string };
