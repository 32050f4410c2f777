/**
 * Test helpers for workflow nodes: plain file references for nodes that only pass them along,
 * and real storage (a PGlite database in a temp dir, migrated on open, and the local object
 * store beside it) for nodes that read or write files through the engine's StepFiles.
 * Params go through the kind's real schema.
 */
import { candidateFormats } from "@vektor/shared/formats";
import type { FileStatus } from "@vektor/shared/schemas/vocab";
import { checkParams } from "@vektor/wasm-tools";
import { eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../db/client";
import { copyPgliteTemplate } from "../../db/pglite-template";
import { file, user } from "../../db/schema";
import { ensureDataDirs, readEnv } from "../../env";
import { newId } from "../../lib/ids";
import { createStore } from "../../storage";
import type { ObjectStore } from "../../storage/types";
import type { FileRef, NodeKind, StepContext, StepFiles } from "../nodes/types";
import { REF_COLUMNS, stepFiles } from "../step-files";

let seq = 0;

/**
 * A file reference that no storage holds, for nodes that only look at references (filters,
 * merges, op steps, triggers). The format is guessed by nobody: pass it (null = unknown).
 */
export function fileRef(filename: string, format: string | null, over: Partial<FileRef> = {}): FileRef {
  seq += 1;
  return { id: `f${seq}`, filename, mime: "application/octet-stream", size: 100, format, createdAt: new Date(Date.UTC(2025, 0, 1, 0, seq)), ...over };
}

/** A context for `kind` with `params` checked (defaults applied) and `over` on top; `logs` collects log lines. */
type ContextOver = Partial<Omit<StepContext, "runInputs" | "previousRunAt">> & Pick<StepContext, "userId" | "files"> & { runInputs?: FileRef[]; previousRunAt?: Date | null };

export function contextFor(kind: NodeKind, params: Record<string, unknown>, { runInputs = [], previousRunAt = null, ...over }: ContextOver) {
  const checked = checkParams(kind.description.params, params);
  if (!checked.ok) throw new Error(checked.message);
  const logs: string[] = [];
  const ctx: StepContext = {
    runId: "run1",
    nodeId: "node1",
    params: checked.params,
    inputs: [],
    runInputs: async () => runInputs,
    previousRunAt: async () => previousRunAt,
    startedAt: new Date("2025-03-04T05:06:07Z"),
    nested: false,
    log: (line) => void logs.push(line),
    ...over,
  };
  return { ctx, logs };
}

export interface UploadOptions {
  mime?: string;
  /** The format the upload's signature check settled on (default: the first the MIME type and name suggest). */
  format?: string | null;
  /** When the upload was confirmed (default now). */
  uploadedAt?: Date;
  /** Set for a job's output (not an upload of the user's own). */
  jobId?: string;
  /** PENDING: bytes not confirmed yet. */
  status?: FileStatus;
}

/** A real user of the test database, with helpers to give them files and run steps as them. */
export interface TestUser {
  id: string;
  /** Stores `bytes` and records them as a file of this user, as an upload confirm or a job's success does. */
  upload(filename: string, bytes: Uint8Array | string, opts?: UploadOptions): Promise<FileRef>;
  /** The engine's StepFiles for a step of this user run as `jobId` (a new id when not given). */
  files(jobId?: string): StepFiles;
  /** A context for a step of this user over the real StepFiles (a new job id per context unless `files` is given). */
  contextFor(kind: NodeKind, params?: Record<string, unknown>, over?: Partial<ContextOver>): ReturnType<typeof contextFor>;
  /** Ids of all this user's file rows, oldest first. */
  fileIds(): Promise<string[]>;
}

export interface TestStorage {
  db: Db;
  store: ObjectStore;
  dataDir: string;
  /** A new user row. */
  user(): Promise<TestUser>;
  /** The file row behind a reference (throws when there is none). */
  row(ref: FileRef | string): Promise<typeof file.$inferSelect>;
  /** The stored bytes of a file. */
  bytes(ref: FileRef | string): Promise<Uint8Array>;
  /** Closes the database and removes the temp dir. */
  close(): Promise<void>;
}

/** Opens a migrated PGlite database (a copy of the test process's template) and a local object store under a new temp dir. */
export async function openTestStorage(): Promise<TestStorage> {
  const dataDir = mkdtempSync(join(tmpdir(), "vektor-nodes-"));
  try {
    const env = readEnv({ DATA_DIR: dataDir, PGLITE_SHARED_BUFFERS: "8MB" });
    ensureDataDirs(env);
    await copyPgliteTemplate(env.dataDir, env.pgliteSharedBuffers);
    const database = await openDatabase(env);
    const db = database.db;
    const store = createStore({ dataDir: env.dataDir });
    const row = async (ref: FileRef | string) => {
      const id = typeof ref === "string" ? ref : ref.id;
      const [r] = await db.select().from(file).where(eq(file.id, id));
      if (!r) throw new Error(`no file row ${id}`);
      return r;
    };
    const newUser = async (): Promise<TestUser> => {
      const id = newId("u");
      await db.insert(user).values({ id, name: id, email: `${id}@example.test` });
      const self: TestUser = {
        id,
        async upload(filename, content, opts = {}) {
          const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
          const fileId = newId("f");
          const key = `u/${id}/${fileId}`;
          const put = await store.put(key, new Response(bytes as Uint8Array<ArrayBuffer>).body!);
          const mime = opts.mime ?? "application/octet-stream";
          const format = opts.format !== undefined ? opts.format : (candidateFormats(mime, filename)[0]?.id ?? null);
          const uploadedAt = opts.uploadedAt ?? new Date();
          const [r] = await db
            .insert(file)
            .values({ id: fileId, userId: id, filename, mime, size: put.size, checksum: put.sha256, status: opts.status ?? "UPLOADED", format, storageKey: key, jobId: opts.jobId ?? null, createdAt: uploadedAt, uploadedAt: opts.status === "PENDING" ? null : uploadedAt })
            .returning(REF_COLUMNS);
          return r;
        },
        files: (jobId = newId("j")) => stepFiles(db, store, id, jobId),
        contextFor: (kind, params = {}, over = {}) => contextFor(kind, params, { userId: id, files: self.files(), ...over }),
        async fileIds() {
          const rows = await db.select({ id: file.id, createdAt: file.createdAt }).from(file).where(eq(file.userId, id));
          return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((r) => r.id);
        },
      };
      return self;
    };
    return {
      db,
      store,
      dataDir,
      user: newUser,
      row,
      bytes: async (ref) => new Response(await store.get((await row(ref)).storageKey)).bytes(),
      async close() {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
