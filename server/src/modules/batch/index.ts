/** Batch routes (spec "Batch"): settings, estimate, create, list, detail, cancel, retry, events, zip, presets. */
import { Batch, BatchCancelled, BatchCreated, BatchDetail, BatchPage, BatchRetried, BatchSettings, CreateBatchBody, Estimate, EstimateBody, Preset, PresetBody, RenameBatchBody } from "@vektor/shared/schemas/batch";
import { ListQuery } from "@vektor/shared/schemas/file";
import { isTerminalBatch } from "@vektor/shared/schemas/vocab";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseLimit } from "../../http/query";
import { sseResponse } from "../../http/sse";
import type { Services } from "../../services";
import { parseRange } from "../files/range";
import type { BatchEventHub, Progress } from "./events";
import type { BatchService } from "./service";
import type { BatchZips } from "./zip";

const IdParam = Type.Object({ id: Type.String({ maxLength: 100 }) });

export interface BatchDeps {
  batches: BatchService;
  hub: BatchEventHub;
  zips: BatchZips;
  heartbeatMs: number;
}

/** The SSE answer: the first event at once, one per change, heartbeats, closed after a terminal status. */
function eventStream(first: Progress, subscribe: (fn: (p: Progress) => void, stopping: () => void) => () => void, heartbeatMs: number, abort: AbortSignal): Response {
  return sseResponse(
    ({ send, close, reconnect }) => {
      let last = "";
      const push = (p: Progress) => {
        const json = JSON.stringify(p);
        if (json === last) return;
        last = json;
        send({ event: "progress", data: p });
        if (isTerminalBatch(p.status)) close();
      };
      push(first);
      return subscribe(push, reconnect);
    },
    heartbeatMs,
    abort,
  );
}

export function batchModule(s: Pick<Services, "callers" | "store">, d: BatchDeps) {
  const { doc, docJson } = routeDocs();
  const tags = ["Batch"];
  return new Elysia({ prefix: "/api/batch" })
    .use(authMacro(s.callers))
    .use(jsonBody)
    .get("/settings", async () => ok(await d.batches.settings()), doc({ summary: "Batch limits, costs and engines", tags, auth: "public", data: BatchSettings }))
    .post("/estimate", async ({ caller, body }) => ok(await d.batches.estimate(caller.plan, body.fileCount)), {
      ...docJson(EstimateBody, { summary: "What a batch of fileCount files would cost", description: "credits = baseCredits + perFileCredits x fileCount; maxFiles is the caller's plan limit.", tags, auth: "api", data: Estimate }),
    })
    .post("", async ({ caller, body }) => ok(await d.batches.create(caller, body)), {
      ...docJson(CreateBatchBody, {
        summary: "Create a batch: one tool over many files",
        description:
          "name (optional, default `<type> x <N>`) is trimmed; blank, over 200 characters or holding control characters: 400 VALIDATION_ERROR. Every file must be the caller's and UPLOADED. Count and total size are bounded by batch.max_files_<plan> / batch.max_size_mb_<plan> (422 LIMIT_EXCEEDED). The charge base + per_file x N is taken atomically with the creation (402 INSUFFICIENT_CREDITS and nothing created when short). batch.enabled off: 403 FEATURE_DISABLED. engine: server (default).",
        tags,
        auth: "api",
        errors: ["NOT_FOUND", "INVALID_STATE", "INSUFFICIENT_CREDITS", "LIMIT_EXCEEDED", "FEATURE_DISABLED"],
        data: BatchCreated,
      }),
    })
    .get("", async ({ caller, query }) => ok(await d.batches.list(caller.id, parseLimit(query.limit, 50, 200), query.cursor)), {
      query: ListQuery,
      ...doc({ summary: "The caller's batches, newest first", tags, auth: "api", data: BatchPage }),
    })
    .get("/presets", async ({ caller }) => ok(await d.batches.presets(caller.id)), doc({ summary: "The caller's batch presets", tags, auth: "api", data: Type.Array(Preset) }))
    .post("/presets", async ({ caller, body }) => ok(await d.batches.createPreset(caller.id, body)), {
      ...docJson(PresetBody, { summary: "Save a named { type, params, engine } preset", tags, auth: "api", data: Preset }),
    })
    .get("/:id", async ({ caller, params }) => ok(await d.batches.detail(caller.id, params.id)), {
      params: IdParam,
      ...doc({
        summary: "A batch and its items",
        description: "Each item names its input file, its status and error, and its outputs: `outFileIds`, and `outputs` with the name and size of each output still stored (download one with GET /api/files/download/{fileId}).",
        tags,
        auth: "api",
        errors: ["NOT_FOUND"],
        data: BatchDetail,
      }),
    })
    .patch("/:id", async ({ caller, params, body }) => ok(await d.batches.rename(caller.id, params.id, body.name)), {
      params: IdParam,
      ...docJson(RenameBatchBody, {
        summary: "Rename a batch",
        description: "Any time, while it runs or after it ended; nothing else changes (the ZIP is named after the new name). The name is trimmed; blank, over 200 characters or holding control characters (line breaks, tabs): 400 VALIDATION_ERROR. Answers the batch as the list shows it.",
        tags,
        auth: "api",
        errors: ["NOT_FOUND"],
        data: Batch,
      }),
    })
    .post("/:id/cancel", async ({ caller, params }) => ok(await d.batches.cancel(caller.id, params.id)), {
      params: IdParam,
      ...doc({
        summary: "Cancel a batch",
        description: "Queued items stop and their per-file credits are refunded; running items finish. A batch that already ended: 409 INVALID_STATE.",
        tags,
        auth: "api",
        errors: ["NOT_FOUND", "INVALID_STATE"],
        data: BatchCancelled,
      }),
    })
    .post("/:id/retry", async ({ caller, params }) => ok(await d.batches.retry(caller.id, params.id)), {
      params: IdParam,
      ...doc({ summary: "Re-run the failed items only (no charge)", tags, auth: "api", errors: ["NOT_FOUND", "INVALID_STATE"], data: BatchRetried }),
    })
    .get(
      "/:id/events",
      async ({ caller, request, params }) => {
        await d.batches.owned(caller.id, params.id);
        const first = await d.hub.current(params.id);
        return eventStream(first, (fn, stopping) => d.hub.subscribe(params.id, fn, stopping), d.heartbeatMs, request.signal);
      },
      {
        params: IdParam,
        ...doc({
          summary: "Progress as server-sent events",
          description: "text/event-stream; `event: progress` with `data: {\"total\",\"done\",\"failed\",\"status\"}`: the first at once, then one per change, a comment heartbeat every 15 s; the stream closes after the event with a terminal status (completed, failed, cancelled). When the server process stops, the stream ends with `event: reconnect` (connect again: another process, or this one restarted, goes on).",
          tags,
          auth: "api",
          errors: ["NOT_FOUND"],
          raw: { description: "Server-sent events", contentType: "text/event-stream" },
        }),
      },
    )
    .get(
      "/:id/zip",
      async ({ caller, request, params }) => {
        const zip = await d.zips.get(caller.id, params.id);
        const etag = `"${zip.sha256}"`;
        const headers: Record<string, string> = { etag, "content-type": "application/zip", "content-disposition": `attachment; filename="${zip.filename}"`, "accept-ranges": "bytes" };
        if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
        const range = parseRange(request.headers.get("range"), zip.size);
        headers["content-length"] = String(range ? range.end - range.start + 1 : zip.size);
        if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${zip.size}`;
        return new Response(await s.store.get(zip.key, range ?? undefined), { status: range ? 206 : 200, headers });
      },
      {
        params: IdParam,
        ...doc({
          summary: "ZIP of the outputs (STORE mode, cached)",
          description: "Built once after the batch ended (409 INVALID_STATE before, or when no item produced an output), then served from storage: same bytes, same ETag (If-None-Match answers 304; Range supported). Entry names are made safe and de-duplicated; ZIP64 past 4 GiB.",
          tags,
          auth: "api",
          errors: ["NOT_FOUND", "INVALID_STATE"],
          raw: { description: "application/zip", contentType: "application/zip" },
        }),
      },
    );
}
