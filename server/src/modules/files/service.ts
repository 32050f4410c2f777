/**
 * Files: presigned uploads (single PUT or multipart), confirmation with size, checksum and
 * signature checks, listing, download, deletion, URL import and retention. Bytes always stream
 * between the client, the object store and the checks; nothing holds a whole file.
 */
import { candidateFormats } from "@vektor/shared/formats";
import { fail, ServiceError } from "@vektor/shared/errors";
import type { ImportUrlBody, PresignUploadBody, PresignUploadResult } from "@vektor/shared/schemas/file";
import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";
import type { ReadCache } from "../../db/read-cache";
import { pageOf, preparedPages } from "../../http/cursor";
import { batch, file } from "../../db/schema";
import { ownedRow } from "../../db/owned";
import type { Env } from "../../env";
import { newId } from "../../lib/ids";
import type { UrlSigner } from "../../lib/signer";
import { withinBodyDeadline } from "../../http/body-deadline";
import { safeFetch } from "../../net/safe-fetch";
import type { ConfigService } from "../../config/service";
import type { ToolRunService } from "../tool-runs/service";
import { StorageError, type ByteRange, type ObjectStore, type PartReceipt } from "../../storage/types";
import { checkSignature, SAMPLE_BYTES } from "./signature";
import { FILE_VIEW_COLUMNS, fileView, safeFilename, withSource, type FileRow, type FileViewRow } from "./view";

const MB = 1024 * 1024;

export interface FileFilter {
  q?: string;
  checksum?: string;
}
/** Signed upload and download URLs live 15 minutes (contract section 5). */
export const URL_TTL_SECONDS = 900;

/**
 * A temp file or multipart folder untouched this long is a crash's or an abandoned upload's
 * leftover: a write in progress touches its file, a body that stalls is cut off long before, and
 * an unfinished multipart upload older than a day has expired with its file's record.
 */
const LEFTOVER_MAX_AGE_MS = 24 * 3_600_000;

export interface FileDeps {
  database: { db: Db };
  /** Keeps list pages until a file changes (see read-cache.ts). */
  reads?: ReadCache;
  /** Watch triggers, told in the transaction that makes an upload UPLOADED. */
  triggers?: { onFileUploaded(tx: Tx, f: FileRow): Promise<unknown> };
  store: ObjectStore;
  config: ConfigService;
  signer: UrlSigner;
  env: Env;
  jobs: ToolRunService;
}

export class FileService {
  private readonly pages;
  /** The list with its filters (a name pattern, a checksum), apart so the plain list keeps its plan. */
  private readonly filteredPages;

  constructor(private readonly d: FileDeps) {
    const page = (name: string, filter: SQL | undefined) =>
      preparedPages<FileViewRow>(name, file.createdAt, file.id, (after) =>
        withSource(d.database.db.select(FILE_VIEW_COLUMNS).from(file).$dynamic())
          .where(and(eq(file.userId, sql.placeholder("userId")), filter, after))
          .orderBy(desc(file.createdAt), desc(file.id))
          .limit(sql.placeholder("limit")),
      );
    this.pages = page("files_list", undefined);
    const pattern = sql.placeholder("pattern");
    const checksum = sql.placeholder("checksum");
    this.filteredPages = page(
      "files_filtered",
      sql`(${pattern}::text is null or ${file.filename} ilike ${pattern}) and (${checksum}::text is null or (${file.checksum} = ${checksum} and ${file.status} = 'UPLOADED'))`,
    );
  }

  private get db(): Db {
    return this.d.database.db;
  }

  private async retention() {
    const c = await this.d.config.all();
    return { uploadHours: c["retention.upload_hours"], outputHours: c["retention.output_hours"] };
  }

  async view(row: FileRow) {
    return fileView(row, await this.retention());
  }

  /** The caller's file as the API shows it, with its source when it is an output. */
  async detail(userId: string, fileId: string) {
    const [row] = await withSource(this.db.select(FILE_VIEW_COLUMNS).from(file).$dynamic()).where(and(eq(file.id, fileId), eq(file.userId, userId)));
    if (!row) throw fail.notFound("File");
    return fileView(row, await this.retention());
  }

  /** The caller's file, or NOT_FOUND (also for someone else's id: never reveal it exists). */
  owned(userId: string, fileId: string): Promise<FileRow> {
    return ownedRow(this.db, file, fileId, userId, "File");
  }

  async presignUpload(userId: string, body: PresignUploadBody): Promise<PresignUploadResult> {
    const c = await this.d.config.all();
    if (body.size > c["upload.max_size_mb"] * MB) throw new ServiceError("PAYLOAD_TOO_LARGE", `Uploads are limited to ${c["upload.max_size_mb"]} MB`);
    const pendingJob = this.pendingJobOf(body, { name: body.filename, size: body.size });
    const id = newId("f");
    const key = `u/${userId}/${id}`;
    const base = { id, userId, filename: safeFilename(body.filename), mime: body.mime, size: body.size, checksum: body.checksum?.toLowerCase() ?? null, status: "PENDING" as const, storageKey: key, pendingJob };
    if (body.size > c["upload.multipart_threshold_mb"] * MB) {
      const partSize = c["upload.part_size_mb"] * MB;
      const uploadId = await this.d.store.createMultipart(key, body.mime);
      await this.db.insert(file).values({ ...base, uploadId, partSize });
      return { fileId: id, multipart: true, uploadId, partSize, partCount: Math.ceil(body.size / partSize) };
    }
    await this.db.insert(file).values(base);
    const direct = await this.d.store.presignPut(key, URL_TTL_SECONDS, body.mime);
    const signed = this.d.signer.query("put", [id], URL_TTL_SECONDS);
    return { fileId: id, multipart: false, uploadUrl: direct ?? `${this.d.env.publicUrl}/api/files/upload/${id}?${signed.qs}`, expiresAt: signed.expiresAt.toISOString() };
  }

  /** createJob/jobType/params, checked before any byte moves (unknown tool 404, bad params 400, a file over the tool's limit 422). */
  private pendingJobOf(body: { createJob?: boolean; jobType?: string; params?: Record<string, unknown> }, upload?: { name: string; size: number }) {
    if (!body.createJob) return null;
    if (!body.jobType) throw fail.validation("createJob needs a jobType (a tool slug such as pdf.compress)");
    return { type: body.jobType, params: this.d.jobs.checkRequest(body.jobType, body.params, upload) };
  }

  /** The job asked for at upload time, created once the file is UPLOADED. */
  private async startPendingJob(row: FileRow): Promise<string | undefined> {
    if (!row.pendingJob) return undefined;
    const created = await this.d.jobs.create(row.userId, { type: row.pendingJob.type, fileIds: [row.id], params: row.pendingJob.params }, "upload");
    return created.jobId;
  }

  /** The signed single-PUT route (local storage): stream the body, at most the declared size. */
  async receiveUpload(fileId: string, q: { exp?: string; sig?: string }, request: Request) {
    this.checkSignature("put", [fileId], q);
    const [row] = await this.db.select().from(file).where(eq(file.id, fileId));
    if (!row) throw fail.notFound("File");
    if (row.status !== "PENDING" || row.uploadId) throw fail.invalidState("This file does not take a single-PUT upload");
    const stored = await this.putBytes(row.storageKey, request, row.size);
    await this.db.update(file).set({ receivedSize: stored.size, receivedSha256: stored.sha256 }).where(eq(file.id, fileId));
    return stored;
  }

  /** A signed PUT's Request (the store may write it natively) or an imported body stream. */
  private async putBytes(key: string, source: Request | ReadableStream<Uint8Array> | null, maxBytes: number) {
    const { store } = this.d;
    try {
      if (source instanceof Request) {
        const request = source;
        const writing = store.putRequest ? store.putRequest(key, request, { maxBytes }) : store.put(key, request.body ?? emptyStream(), { maxBytes });
        return await withinBodyDeadline(this.d.env, bodyLength(request, maxBytes), writing);
      }
      return await store.put(key, source ?? emptyStream(), { maxBytes });
    } catch (e) {
      if (e instanceof StorageError && e.reason === "too-large") throw new ServiceError("PAYLOAD_TOO_LARGE", `The body is larger than the declared ${maxBytes} bytes`);
      throw e;
    }
  }

  private checkSignature(purpose: string, parts: (string | number)[], q: { exp?: string; sig?: string }) {
    const verdict = this.d.signer.verify(purpose, parts, q.exp, q.sig);
    if (verdict === "expired") throw new ServiceError("UNAUTHORIZED", "This signed URL has expired");
    if (verdict !== "ok") throw new ServiceError("UNAUTHORIZED", "This signed URL is not valid");
  }

  private async openMultipart(userId: string, fileId: string, uploadId: string): Promise<FileRow> {
    const row = await this.owned(userId, fileId);
    if (row.status !== "PENDING" || row.uploadId !== uploadId) throw fail.invalidState("No open multipart upload with this uploadId");
    return row;
  }

  async partUrl(userId: string, fileId: string, uploadId: string, partNumber: number) {
    const row = await this.openMultipart(userId, fileId, uploadId);
    const partCount = Math.max(1, Math.ceil(row.size / row.partSize!));
    if (partNumber > partCount) throw fail.validation(`partNumber must be from 1 to ${partCount}`);
    const direct = await this.d.store.presignPart(row.storageKey, uploadId, partNumber, URL_TTL_SECONDS);
    const signed = this.d.signer.query("part", [fileId, uploadId, partNumber], URL_TTL_SECONDS);
    const url = direct ?? `${this.d.env.publicUrl}/api/files/upload/${fileId}/parts/${partNumber}?uploadId=${encodeURIComponent(uploadId)}&${signed.qs}`;
    return { url, expiresAt: signed.expiresAt.toISOString() };
  }

  /** The signed part route (local storage). */
  async receivePart(fileId: string, partNumber: number, q: { uploadId?: string; exp?: string; sig?: string }, request: Request): Promise<PartReceipt> {
    const uploadId = q.uploadId ?? "";
    this.checkSignature("part", [fileId, uploadId, partNumber], q);
    const [row] = await this.db.select().from(file).where(eq(file.id, fileId));
    if (!row || row.status !== "PENDING" || row.uploadId !== uploadId) throw fail.invalidState("No open multipart upload with this uploadId");
    try {
      return await withinBodyDeadline(this.d.env, bodyLength(request, row.partSize!), this.d.store.putPart(row.storageKey, uploadId, partNumber, row.partSize!, request));
    } catch (e) {
      if (e instanceof StorageError) throw new ServiceError(e.reason === "too-large" ? "PAYLOAD_TOO_LARGE" : "VALIDATION_ERROR", e.message);
      throw e;
    }
  }

  async completeMultipart(userId: string, fileId: string, uploadId: string, parts: PartReceipt[]) {
    const row = await this.openMultipart(userId, fileId, uploadId);
    const joined = await this.d.store.completeMultipart(row.storageKey, uploadId, parts).catch((e) => {
      throw e instanceof StorageError ? fail.validation(`Cannot complete the upload: ${e.message}`) : e;
    });
    const info = await this.d.store.head(row.storageKey);
    // The sha256 taken while the parts arrived, when the store has one: confirm skips a re-read.
    await this.db.update(file).set({ uploadId: null, receivedSize: info?.size ?? 0, receivedSha256: joined.sha256 }).where(eq(file.id, fileId));
    return { fileId, size: info?.size ?? 0, completed: true };
  }

  async abortMultipart(userId: string, fileId: string, uploadId: string) {
    const row = await this.openMultipart(userId, fileId, uploadId);
    await this.d.store.abortMultipart(row.storageKey, uploadId);
    await this.db.delete(file).where(eq(file.id, row.id));
    return { fileId, aborted: true };
  }

  /** Size, checksum and signature checks; on success the file is UPLOADED. A failed check removes the bytes. */
  async confirm(userId: string, fileId: string) {
    const row = await this.owned(userId, fileId);
    if (row.status === "UPLOADED") throw fail.invalidState("This file is already confirmed");
    if (row.uploadId) throw fail.invalidState("Complete the multipart upload before confirming");
    const info = await this.d.store.head(row.storageKey);
    if (!info) throw fail.invalidState("No bytes were uploaded for this file yet");
    const result = await this.verifyStored(row, info.size).catch(async (e) => {
      await this.discard(row);
      throw e;
    });
    const updated = await this.db.transaction(async (tx) => {
      const [u] = await tx
        .update(file)
        .set({ status: "UPLOADED", size: info.size, checksum: result.sha256, format: result.format, uploadedAt: new Date() })
        .where(and(eq(file.id, fileId), eq(file.status, "PENDING")))
        .returning();
      if (u) await this.d.triggers?.onFileUploaded(tx, u);
      return u;
    });
    if (!updated) throw fail.invalidState("This file is already confirmed");
    this.d.jobs.learnFiles(userId, [updated]);
    const jobId = await this.startPendingJob(updated);
    return { ...(await this.view(updated)), ...(jobId ? { jobId } : {}) };
  }

  private async verifyStored(row: FileRow, size: number) {
    if (size !== row.size) throw new ServiceError("FILE_SIGNATURE_MISMATCH", `Declared ${row.size} bytes but ${size} arrived`);
    const sha256 = row.receivedSha256 && row.receivedSize === size ? row.receivedSha256 : await this.d.store.sha256(row.storageKey);
    if (row.checksum && row.checksum !== sha256) throw new ServiceError("FILE_SIGNATURE_MISMATCH", "The sha256 checksum does not match the bytes");
    const format = await this.sniff(row.storageKey, row.mime, row.filename, size);
    return { sha256, format };
  }

  private async sniff(key: string, mime: string, filename: string, size: number) {
    const head = await this.d.store.readBytes(key, 0, SAMPLE_BYTES);
    const tail = size > SAMPLE_BYTES ? await this.d.store.readBytes(key, size - SAMPLE_BYTES, SAMPLE_BYTES) : head;
    const verdict = await checkSignature(mime, filename, { head, tail, size });
    if (!verdict.ok) throw new ServiceError("FILE_SIGNATURE_MISMATCH", `The content is not ${verdict.expected.join(" or ")} as declared by "${mime}" / "${filename}"`);
    return verdict.format;
  }

  private async discard(row: FileRow) {
    await this.d.store.delete(row.storageKey);
    await this.db.delete(file).where(eq(file.id, row.id));
  }

  /**
   * A page of the caller's files, newest first; `q` keeps names containing it (case-insensitive,
   * taken literally), `checksum` keeps UPLOADED files with those bytes (a declared, unchecked
   * checksum of a pending upload never matches). Only the caller's own files are ever looked at.
   */
  async list(userId: string, limit: number, cursor: string | undefined, filter: FileFilter = {}) {
    const retention = await this.retention();
    const pattern = filter.q ? `%${filter.q.replace(/[\\%_]/g, "\\$&")}%` : null;
    const checksum = filter.checksum?.toLowerCase() ?? null;
    const rows = (n: number) =>
      pattern === null && checksum === null ? this.pages({ userId }, n, cursor) : this.filteredPages({ userId, pattern, checksum }, n, cursor);
    const read = async () => {
      const { page, nextCursor } = pageOf(await rows(limit + 1), limit);
      return { items: page.map((r) => fileView(r, retention)), nextCursor };
    };
    // The views are kept, not the rows: making their dates is most of a cached page's cost.
    const key = `files:${userId}:${limit}:${cursor ?? ""}:${retention.uploadHours}:${retention.outputHours}:${JSON.stringify([checksum, pattern])}`;
    return this.d.reads ? this.d.reads.read(key, ["file"], read) : read();
  }

  async remove(userId: string, fileId: string) {
    const row = await this.owned(userId, fileId);
    if (row.uploadId) await this.d.store.abortMultipart(row.storageKey, row.uploadId).catch(() => {});
    await this.discard(row);
    return { fileId, deleted: true };
  }

  /** The stream (or byte range) of a confirmed file. */
  async open(row: FileRow, range: ByteRange | null) {
    if (row.status !== "UPLOADED") throw fail.invalidState("This file is not uploaded yet");
    const { store } = this.d;
    return store.getBlob ? store.getBlob(row.storageKey, range ?? undefined) : store.get(row.storageKey, range ?? undefined);
  }

  async presignDownload(userId: string, fileId: string) {
    const row = await this.owned(userId, fileId);
    if (row.status !== "UPLOADED") throw fail.invalidState("This file is not uploaded yet");
    const signed = this.d.signer.query("get", [fileId], URL_TTL_SECONDS);
    const direct = await this.d.store.presignGet(row.storageKey, URL_TTL_SECONDS, row.filename);
    return { url: direct ?? `${this.d.env.publicUrl}/api/files/signed/${fileId}?${signed.qs}`, expiresAt: signed.expiresAt.toISOString() };
  }

  /** The file behind a signed download URL. */
  async signedRow(fileId: string, q: { exp?: string; sig?: string }): Promise<FileRow> {
    this.checkSignature("get", [fileId], q);
    const [row] = await this.db.select().from(file).where(eq(file.id, fileId));
    if (!row) throw fail.notFound("File");
    return row;
  }

  /** Fetch a remote file through the address guard into storage; it is UPLOADED when its signature matches. */
  async importUrl(userId: string, body: ImportUrlBody) {
    const c = await this.d.config.all();
    const maxBytes = c["import.max_size_mb"] * MB;
    const pendingJob = this.pendingJobOf(body);
    const fetched = await safeFetch(body.url, { allowHosts: c["net.allow_hosts"], maxBytes, timeoutMs: this.d.env.importTimeoutMs });
    const id = newId("f");
    const key = `u/${userId}/${id}`;
    const stored = await this.putBytes(key, fetched.body, maxBytes).catch(async (e) => {
      await this.d.store.delete(key).catch(() => {});
      throw e instanceof ServiceError && e.code === "PAYLOAD_TOO_LARGE" ? new ServiceError("PAYLOAD_TOO_LARGE", `Imports are limited to ${c["import.max_size_mb"]} MB`) : e;
    });
    const filename = safeFilename(body.filename ?? fetched.filename ?? "download");
    const mime = body.mime ?? usefulMime(fetched.contentType, filename);
    const format = await this.sniff(key, mime, filename, stored.size).catch(async (e) => {
      await this.d.store.delete(key);
      throw e;
    });
    const row = await this.db.transaction(async (tx) => {
      const [r] = await tx
        .insert(file)
        .values({ id, userId, filename, mime, size: stored.size, checksum: stored.sha256, status: "UPLOADED", format, storageKey: key, pendingJob, uploadedAt: new Date() })
        .returning();
      await this.d.triggers?.onFileUploaded(tx, r);
      return r;
    });
    this.d.jobs.learnFiles(userId, [row]);
    const jobId = await this.startPendingJob(row);
    return { ...(await this.view(row)), ...(jobId ? { jobId } : {}) };
  }

  /** Delete uploads and outputs past their retention, and never-confirmed uploads. */
  async runRetention(now: Date) {
    const { uploadHours, outputHours } = await this.retention();
    const uploadCut = new Date(now.getTime() - uploadHours * 3_600_000);
    const outputCut = new Date(now.getTime() - outputHours * 3_600_000);
    const expired = await this.db
      .select()
      .from(file)
      .where(or(and(isNull(file.jobId), lt(file.createdAt, uploadCut)), and(isNotNull(file.jobId), lt(file.createdAt, outputCut))))
      .limit(5000);
    let freedBytes = 0;
    for (const row of expired) {
      if (row.uploadId) await this.d.store.abortMultipart(row.storageKey, row.uploadId).catch(() => {});
      await this.d.store.delete(row.storageKey);
      freedBytes += row.status === "UPLOADED" ? row.size : 0;
    }
    for (let i = 0; i < expired.length; i += 500) {
      await this.db.delete(file).where(inArray(file.id, expired.slice(i, i + 500).map((r) => r.id)));
    }
    freedBytes += await this.expireBatchZips(outputCut);
    const leftoversRemoved = (await this.d.store.sweep?.(LEFTOVER_MAX_AGE_MS, now.getTime())) ?? 0;
    return { deletedFiles: expired.length, freedBytes, uploadCutoff: uploadCut.toISOString(), outputCutoff: outputCut.toISOString(), leftoversRemoved };
  }

  /** Cached batch ZIPs follow the outputs' retention; a later request builds a new one if outputs remain. */
  private async expireBatchZips(cut: Date): Promise<number> {
    const old = await this.db
      .select({ id: batch.id, key: batch.zipKey, size: batch.zipSize })
      .from(batch)
      .where(and(eq(batch.zipState, "ready"), lt(batch.createdAt, cut)));
    for (const z of old) {
      if (z.key) await this.d.store.delete(z.key);
      await this.db.update(batch).set({ zipState: null, zipKey: null, zipSize: null, zipSha256: null, zipStartedAt: null }).where(eq(batch.id, z.id));
    }
    return old.reduce((sum, z) => sum + (z.size ?? 0), 0);
  }

  /** Count of rows, for tests and status. */
  async countFor(userId: string) {
    const [r] = await this.db.select({ n: sql<number>`count(*)::int` }).from(file).where(eq(file.userId, userId));
    return r.n;
  }
}


function usefulMime(contentType: string | null, filename: string): string {
  const ct = contentType?.split(";")[0].trim().toLowerCase();
  if (ct && ct !== "application/octet-stream" && ct !== "binary/octet-stream") return ct;
  return candidateFormats("", filename)[0]?.mimes[0] ?? "application/octet-stream";
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (c) => c.close() });
}

/** The body's declared length, or at most `cap` when it declares none (chunked). */
function bodyLength(request: Request, cap: number): number {
  const declared = Number(request.headers.get("content-length"));
  return Number.isFinite(declared) && declared >= 0 && request.headers.has("content-length") ? declared : cap;
}
