/** Files routes (spec "Files and jobs"; the job routes come with the tools). */
import { fail } from "@vektor/shared/errors";
import {
  ConfirmResult,
  FileIdBody,
  FileDeleted,
  FileList,
  FileRecord,
  ImportUrlBody,
  ListQuery,
  MultipartAbortBody,
  MultipartAborted,
  MultipartCompleteBody,
  MultipartCompleted,
  MultipartPartBody,
  PresignUploadBody,
  PartReceipt,
  PresignUploadResult,
  SignedUrl,
  UploadReceipt,
} from "@vektor/shared/schemas/file";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseLimit } from "../../http/query";
import type { Services } from "../../services";
import { parseRange } from "./range";
import type { FileService } from "./service";
import { contentDisposition, type FileRow } from "./view";

const FileIdParam = Type.Object({ fileId: Type.String({ maxLength: 100 }) });
const SignedQuery = Type.Object({ exp: Type.Optional(Type.String()), sig: Type.Optional(Type.String()), uploadId: Type.Optional(Type.String()) });

export function filesModule(s: Pick<Services, "callers">, files: FileService) {
  const { doc, docJson } = routeDocs();

  async function serve(row: FileRow, request: Request): Promise<Response> {
    if (row.status !== "UPLOADED") throw fail.invalidState("This file is not uploaded yet");
    const range = parseRange(request.headers.get("range"), row.size);
    const body = await files.open(row, range);
    const headers: Record<string, string> = {
      "content-type": row.mime,
      "content-disposition": contentDisposition(row.filename),
      "accept-ranges": "bytes",
      "content-length": String(range ? range.end - range.start + 1 : row.size),
    };
    if (row.checksum) headers.etag = `"${row.checksum}"`;
    if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${row.size}`;
    return new Response(body, { status: range ? 206 : 200, headers });
  }

  return new Elysia({ prefix: "/api/files" })
    .use(authMacro(s.callers))
    .use(jsonBody)
    .post("/presign-upload", async ({ caller, body }) => ok(await files.presignUpload(caller.id, body)), {
      ...docJson(PresignUploadBody, { summary: "Start an upload",
        description:
          "At or below `upload.multipart_threshold_mb` the answer has an absolute signed `uploadUrl` (15 minutes, no cookie needed) to PUT the bytes to; above it the answer is a multipart upload (`uploadId`, `partSize`, `partCount`): get each part's URL from /api/files/multipart/part, PUT it, then /api/files/multipart/complete. Then POST /api/files/confirm. Larger than `upload.max_size_mb` -> 413. With `createJob`, a `size` over the tool's input limit (GET /api/tools/lookup `maxInputBytes`) -> 422 LIMIT_EXCEEDED before any byte moves.",
        tags: ["Files"],
        auth: "api",
        errors: ["PAYLOAD_TOO_LARGE", "LIMIT_EXCEEDED"],
        data: PresignUploadResult,
      }),
    })
    .put(
      "/upload/:fileId",
      async ({ params, query, request, set }) => {
        const stored = await files.receiveUpload(params.fileId, query, request);
        set.headers.etag = `"${stored.sha256}"`;
        return ok({ fileId: params.fileId, size: stored.size });
      },
      {
        parse: "none",
        params: FileIdParam,
        query: SignedQuery,
        ...doc({ summary: "Signed single-PUT target (the uploadUrl)", description: "The raw bytes are the body; at most the declared size.", tags: ["Files"], auth: "signed", errors: ["NOT_FOUND", "INVALID_STATE", "PAYLOAD_TOO_LARGE", "REQUEST_TIMEOUT", "STORAGE_FULL"], data: UploadReceipt }),
      },
    )
    .put(
      "/upload/:fileId/parts/:partNumber",
      async ({ params, query, request, set }) => {
        const partNumber = Number(params.partNumber);
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) throw fail.validation("partNumber must be from 1 to 10000");
        const receipt = await files.receivePart(params.fileId, partNumber, query, request);
        set.headers.etag = receipt.etag;
        return ok(receipt);
      },
      {
        parse: "none",
        params: Type.Object({ fileId: Type.String({ maxLength: 100 }), partNumber: Type.String({ maxLength: 5 }) }),
        query: SignedQuery,
        ...doc({ summary: "Signed multipart part target", description: "Answers the part's `ETag` header; send it back in multipart/complete. The ETag names this upload of the part (sending a part again gives a new one), not its content: the whole file's sha256 is what confirm records (and checks against a declared checksum).", tags: ["Files"], auth: "signed", errors: ["INVALID_STATE", "PAYLOAD_TOO_LARGE", "REQUEST_TIMEOUT", "STORAGE_FULL"], data: PartReceipt }),
      },
    )
    .post("/multipart/part", async ({ caller, body }) => ok(await files.partUrl(caller.id, body.fileId, body.uploadId, body.partNumber)), {
      ...docJson(MultipartPartBody, { summary: "Signed URL for one part", tags: ["Files"], auth: "api", errors: ["NOT_FOUND", "INVALID_STATE"], data: SignedUrl }),
    })
    .post("/multipart/complete", async ({ caller, body }) => ok(await files.completeMultipart(caller.id, body.fileId, body.uploadId, body.parts)), {
      ...docJson(MultipartCompleteBody, { summary: "Join the uploaded parts", tags: ["Files"], auth: "api", errors: ["NOT_FOUND", "INVALID_STATE"], data: MultipartCompleted }),
    })
    .post("/multipart/abort", async ({ caller, body }) => ok(await files.abortMultipart(caller.id, body.fileId, body.uploadId)), {
      ...docJson(MultipartAbortBody, { summary: "Abandon a multipart upload and its parts", tags: ["Files"], auth: "api", errors: ["NOT_FOUND", "INVALID_STATE"], data: MultipartAborted }),
    })
    .post("/confirm", async ({ caller, body }) => ok(await files.confirm(caller.id, body.fileId)), {
      ...docJson(FileIdBody, { summary: "Confirm an upload",
        description: "Checks the size, the optional sha256 `checksum`, and the bytes' signature (magic) against the declared MIME type and file name. On success the file is UPLOADED; a failed check answers 422 FILE_SIGNATURE_MISMATCH and removes the file. Confirming twice -> 409 INVALID_STATE.",
        tags: ["Files"],
        auth: "api",
        errors: ["NOT_FOUND", "INVALID_STATE", "FILE_SIGNATURE_MISMATCH"],
        data: ConfirmResult,
      }),
    })
    .post("/import-url", async ({ caller, body }) => ok(await files.importUrl(caller.id, body)), {
      ...docJson(ImportUrlBody, { summary: "Import a file from an http(s) URL",
        description:
          "The server resolves the host itself and refuses private, loopback, link-local, CGNAT, multicast and cloud-metadata addresses (IPv4, IPv6 and mapped forms), re-checks every redirect (at most 5), stops at `import.max_size_mb` (413) and times out. Hosts in `net.allow_hosts` are exempt. The bytes pass the same signature check as an upload; the file is UPLOADED when it does.",
        tags: ["Files"],
        auth: "api",
        errors: ["IMPORT_BLOCKED", "PAYLOAD_TOO_LARGE", "FILE_SIGNATURE_MISMATCH", "STORAGE_FULL", "LIMIT_EXCEEDED"],
        data: FileRecord,
      }),
    })
    .post("/presign-download", async ({ caller, body }) => ok(await files.presignDownload(caller.id, body.fileId)), {
      ...docJson(FileIdBody, { summary: "Signed download URL (15 minutes, no cookie needed)", tags: ["Files"], auth: "api", errors: ["NOT_FOUND", "INVALID_STATE"], data: SignedUrl }),
    })
    .get(
      "/signed/:fileId",
      async ({ params, query, request }) => serve(await files.signedRow(params.fileId, query), request),
      { params: FileIdParam, query: SignedQuery, ...doc({ summary: "Signed download target", tags: ["Files"], auth: "signed", errors: ["NOT_FOUND", "INVALID_STATE"], raw: { description: "The file's bytes; supports Range", contentType: "application/octet-stream" } }) },
    )
    .get(
      "/download/:fileId",
      async ({ caller, params, request }) => serve(await files.owned(caller.id, params.fileId), request),
      {
        params: FileIdParam,
        ...doc({ summary: "Download a file (streamed; Range supported)", description: "Sends Content-Disposition, Content-Length and ETag. A single `Range: bytes=` range answers 206; an unsatisfiable one 416 with the error envelope (code VALIDATION_ERROR).", tags: ["Files"], auth: "api", errors: ["NOT_FOUND", "INVALID_STATE"], raw: { description: "The file's bytes", contentType: "application/octet-stream" } }),
      },
    )
    .get(
      "",
      async ({ caller, query }) => ok(await files.list(caller.id, parseLimit(query.limit, 50, 200), query.cursor, { q: query.q, checksum: query.checksum })),
      {
        query: ListQuery,
        ...doc({
          summary: "The caller's files, newest first",
          description:
            "`limit` 1..200 (default 50); pass `nextCursor` as `cursor` for the next page (with the same filters). `q` keeps files whose name contains it (case-insensitive; `%` and `_` are plain characters). `checksum` (sha256 hex) keeps the caller's UPLOADED files with exactly those bytes: ask it before uploading, and reuse a file it answers instead of storing the same bytes again. Only the caller's own files are ever matched. An output carries `source`: the job (and tool) that wrote it, the file it was made from, and its batch or workflow run.",
          tags: ["Files"],
          auth: "api",
          data: FileList,
        }),
      },
    )
    .get("/:fileId", async ({ caller, params }) => ok(await files.detail(caller.id, params.fileId)), {
      params: FileIdParam,
      ...doc({ summary: "File detail", description: "An output also names its `source`: the job and tool that wrote it, the file it was made from, and its batch or workflow run.", tags: ["Files"], auth: "api", errors: ["NOT_FOUND"], data: FileRecord }),
    })
    .delete("/:fileId", async ({ caller, params }) => ok(await files.remove(caller.id, params.fileId)), {
      params: FileIdParam,
      ...doc({ summary: "Delete a file and its bytes", tags: ["Files"], auth: "api", errors: ["NOT_FOUND"], data: FileDeleted }),
    });
}
