/**
 * Plans at scale: every GET of the API once, on a throwaway PostgreSQL that holds a long history,
 * with auto_explain logging the plan of every statement the server runs. A short benchmark's
 * queue and history hide a statement that reads a whole table or queue; this one shows it.
 *   data      one user with HISTORY (default 50,000) ended jobs and as many files, a batch of
 *             2,000 items waiting (ROLE=api, no worker runs it), HISTORY / 5 runs of a workflow
 *             and as many approvals; another user's history beside it is not needed, as every
 *             row read beyond the caller's page shows
 *   method    each GET of /openapi.json that needs no body (ids filled in with the data's), then
 *             the plans it caused, from the server's log
 *   prints    per request: its status, the statements planned, and those whose plan read more
 *             than 1,000 rows (actual rows of a node, or rows removed by a filter) with the node;
 *             the result: KNOWN for reads whose size is the answer's (a batch's items, the queue's
 *             count) or noted, HEAVY for any other
 *             (no machine line: what it measures is rows read, which a busy machine does not change)
 *   env       HISTORY, BENCH_STRICT=1 (exit 1 on a HEAVY), BENCH_SERVER_ENTRY (an older server, to
 *             A/B: 179bac2's shows three HEAVY requests, the jobs list, a batch's detail and the
 *             approvals inbox)
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument } from "./lib/deps";
import { startPostgres } from "./lib/postgres";
import { startServer } from "./lib/server";
import { printTable } from "./lib/table";
import { Teardown } from "./lib/teardown";

const HISTORY = Number(process.env.HISTORY ?? 50_000);
const ITEMS = 2000;
const HEAVY = /actual rows=(\d{4,})|Rows Removed by Filter: (\d{4,})/;

/**
 * Reads whose size is the answer's (a batch's items, with the index entries their updates left:
 * up to 1.5x), or noted in a closing note. A request is HEAVY when any node reads more than this.
 */
const KNOWN: Record<string, { why: string; rows: number }> = {
  "/status": { why: "counts the live queue", rows: ITEMS * 1.5 },
  "/api/batch": { why: "counts the listed batches' items", rows: ITEMS * 1.5 },
  "/api/batch/{id}": { why: "lists the batch's items", rows: ITEMS * 1.5 },
  "/api/batch/{id}/zip": { why: "counts the batch's items", rows: ITEMS * 1.5 },
  "/api/files/jobs-latest": { why: "JSON containment in input_file_ids, no index (one would cost every job insert)", rows: Infinity },
};

/** The number a plan line's node read: its actual rows, or the rows its filter removed. */
const rowsOf = (line: string) => {
  const m = HEAVY.exec(line);
  return m ? Number(m[1] ?? m[2]) : 0;
};

const teardown = new Teardown("plans", tmpdir());
process.env.BENCH_PG_OPTS = "-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 -c auto_explain.log_analyze=on -c auto_explain.log_timing=off -c auto_explain.log_nested_statements=on";
const pg = await startPostgres();
teardown.add(() => pg.stop());
const server = await startServer(join(teardown.dir, "data"), { DATABASE_URL: pg.url, ROLE: "api", LOG_LEVEL: "error" });
teardown.add(() => server.stop());
const log = () => readFileSync(pg.log, "utf8");

try {
  const client = await server.admin();
  await client.admin.setConfig("batch_configs", { "batch.max_files_free": 10_000, "batch.max_size_mb_free": 1_000_000 });
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  const { fileId } = await client.files.upload(new Blob([new Uint8Array(await doc.save())]), { filename: "a.pdf", mime: "application/pdf" });
  // A job and a run to copy: nothing runs them here (ROLE=api), so each stays queued; the call gives up waiting.
  await client.t.send("POST", "/api/tools/pdf.rotate", { fileIds: [fileId], params: { degrees: 90 } }, {}, AbortSignal.timeout(2000)).catch(() => {});
  const graphJson = JSON.stringify({ nodes: ["source.upload", "logic.approval", "sink.download"].map((type, i) => ({ id: `n${i}`, type, data: { type } })), edges: [{ source: "n0", target: "n1" }, { source: "n1", target: "n2" }] });
  const workflow = await client.workflows.create({ name: "plans", graphJson });
  const { runId } = await client.workflows.run(workflow.id, [fileId]);
  await makeHistory(fileId, runId);
  // A batch of ITEMS is charged: credits as an admin would grant them.
  await pg.sql`update "user" set credits = 1000000 where id = (select user_id from file where id = ${fileId})`;
  const ids = (await pg.sql`select id from file where id like 'f_h%' order by id limit ${ITEMS}`).map((r) => r.id as string);
  const batch = await client.batches.create({ type: "pdf.rotate", fileIds: ids, params: { degrees: 90 } });
  const [tpl] = await pg.sql`select id from job where batch_id is null order by created_at desc limit 1`;
  await pg.sql`analyze`;

  const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>> };
  const values: Record<string, string> = { fileId, jobId: tpl.id, batchId: batch.batchId, runId, workflowId: workflow.id };
  // `{id}` names a batch under /api/batch, a workflow under /api/workflows.
  const idOf = (path: string) => (path.startsWith("/api/batch") ? batch.batchId : workflow.id);
  const rows: (string | number)[][] = [];
  let heavyCount = 0;
  for (const [path, ops] of Object.entries(spec.paths)) {
    const get = ops.get;
    if (!get || /mcp|events|download|signed|versions\/\{/.test(path)) continue;
    const query = (get.parameters ?? []).filter((p) => p.in === "query" && p.required).map((p) => `${p.name}=${values[p.name] ?? "x"}`);
    const url = path.replace(/\{(\w+)\}/g, (_, k) => (k === "id" ? idOf(path) : (values[k] ?? "x"))) + (query.length ? `?${query.join("&")}` : "");
    const at = log().length;
    const res = await client.t.fetch(url, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status, (e: Error) => e.name);
    await Bun.sleep(100); // the log is written as the statements end
    const plans = log().slice(at).split(/\n(?=\S.*LOG: {2}duration)/).filter((b) => b.includes("duration:"));
    const heavy = plans.filter((b) => HEAVY.test(b));
    const lines = heavy.flatMap((b) => b.split("\n").filter((l) => HEAVY.test(l))).sort((a, b) => rowsOf(b) - rowsOf(a));
    const known = KNOWN[path];
    const result = lines.length === 0 ? "ok" : known && rowsOf(lines[0]) <= known.rows ? `KNOWN: ${known.why}` : "HEAVY";
    if (result === "HEAVY") heavyCount++;
    rows.push([`GET ${path}`, res, plans.length, heavy.length, (lines[0] ?? "").trim().replace(/\(cost=[^)]*\) /, "").slice(0, 90), result]);
  }
  console.log(`\nplans at scale: every GET once on PostgreSQL holding ${HISTORY.toLocaleString("en")} ended jobs and files, ${(HISTORY / 5).toLocaleString("en")} workflow runs and approvals, a batch of ${ITEMS.toLocaleString("en")} waiting; statements whose plan read > 1,000 rows\n`);
  printTable(["request", "status", "statements", "reading > 1,000 rows", "largest such node", "result"], rows);
  console.log(`\n${heavyCount === 0 ? "no request reads beyond its answer" : `${heavyCount} request(s) read beyond their answer`}`);
  if (heavyCount && process.env.BENCH_STRICT === "1") process.exitCode = 1;
} finally {
  await teardown.run();
}

/** The history, copied in SQL from the rows the API made: ended jobs, files, runs and their approvals. */
async function makeHistory(fileId: string, runId: string): Promise<void> {
  const columns = async (table: string) => (await pg.sql`select column_name from information_schema.columns where table_name = ${table} order by ordinal_position`).map((r) => r.column_name as string);
  const copy = async (table: string, where: string, n: number, values: Record<string, string>) => {
    const cs = await columns(table);
    const list = cs.map((c) => values[c] ?? `"${c}"`).join(", ");
    await pg.sql.unsafe(`insert into ${table} (${cs.map((c) => `"${c}"`).join(", ")}) select ${list} from ${table}, generate_series(1, ${n}) g where ${where}`);
  };
  const ago = "now() - (g || ' seconds')::interval";
  await copy("file", `id = '${fileId}'`, HISTORY, { id: "'f_h' || g", created_at: ago });
  await copy("job", "batch_id is null and kind = 'tool.run'", HISTORY, { id: "'job_h' || g", status: "'succeeded'", input_file_ids: `'["f_h1"]'::jsonb`, created_at: ago, finished_at: "now()" });
  await copy("workflow_run", `id = '${runId}'`, HISTORY / 5, { id: "'run_h' || g", status: "'waiting_approval'", created_at: ago });
  // An approval per run, one in ten pending (its owner too, where the schema has it: an older server's, for an A/B, does not).
  const owner = (await columns("workflow_approval")).includes("user_id");
  await pg.sql.unsafe(
    `insert into workflow_approval (id, run_id, ${owner ? "user_id, " : ""}node_id, status, requested_at, expires_at) select 'apr_h' || g, r.id, ${owner ? "r.user_id, " : ""}'n1', case when g % 10 = 0 then 'pending' else 'approved' end, ${ago}, now() + interval '1 day' from generate_series(1, ${HISTORY / 5}) g join workflow_run r on r.id = 'run_h' || g`,
  );
}
