/**
 * Workflows on this device beside the server (issue 21): one 5-step workflow
 * (source.upload -> logic.filter pdf -> op.pdf.rotate -> op.pdf.compress -> sink.zip) over
 * BENCH_WF_DEVICE_FILES PDFs (default 10, BENCH_WF_DEVICE_PAGES pages each, default 3), run
 *
 *   device  in Debian's Chromium from the editor's run dialog (Run on: This device): from Start run
 *           to the status saying it is done on this device; cold (a fresh profile, the PDF tools'
 *           WASM fetched) and warm (the next run in the same page)
 *   server  through the official client: upload the files, POST the run, wait for it, download the
 *           ZIP; the first run and the second
 *
 * against the real server on 127.0.0.1 (web/dist built first when stale). Run by
 * `npm run bench -- workflows` (beside bench/workflows.ts) or `npm run bench -- workflows-device`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VektorClient } from "@vektor/shared/client";
import { launchChromium } from "../e2e/support/browser";
import { makePdf } from "../e2e/support/inputs";
import { startServer } from "./lib/server";
import { CpuWatch, printTable } from "./lib/table";

const FILES = Number(process.env.BENCH_WF_DEVICE_FILES ?? 10);
const PAGES = Number(process.env.BENCH_WF_DEVICE_PAGES ?? 3);
const PASSWORD = "bench password 123";
const root = join(import.meta.dir, "..");

const build = spawnSync(process.execPath, [join(root, "web", "scripts", "ensure-build.mjs")], { stdio: "inherit", env: { ...process.env, BUN_BIN: process.execPath } });
if (build.status !== 0) process.exit(build.status ?? 1);

const GRAPH = JSON.stringify({
  nodes: [
    ["in", "source.upload"],
    ["pdfs", "logic.filter", { formats: ["pdf"] }],
    ["rotate", "op.pdf.rotate", { degrees: 90 }],
    ["compress", "op.pdf.compress", { level: 6 }],
    ["zip", "sink.zip", { name: "bench" }],
  ].map(([id, type, params], i) => ({ id, type, position: { x: 0, y: i * 120 }, data: { type, params: params ?? {} } })),
  edges: ["in>pdfs", "pdfs>rotate", "rotate>compress", "compress>zip"].map((e, i) => ({ id: `e${i}`, source: e.split(">")[0], target: e.split(">")[1] })),
});

const files = await Promise.all(Array.from({ length: FILES }, async (_, i) => ({ name: `sheet-${i + 1}.pdf`, bytes: await makePdf(PAGES, `Sheet ${i + 1}`) })));
const inputBytes = files.reduce((n, f) => n + f.bytes.length, 0);

const watch = new CpuWatch();
const dataDir = mkdtempSync(join(tmpdir(), "vektor-bench-wf-device-"));
const server = await startServer(dataDir);
const email = `bench-device-${crypto.randomUUID().slice(0, 8)}@example.test`;
const client = new VektorClient({ baseUrl: server.url });
await client.auth.signUp({ name: "bench", email, password: PASSWORD });
const workflow = await client.workflows.create({ name: "Bench five steps", graphJson: GRAPH });

/** Upload, run, wait, download the ZIP: the whole of what a person waits for on the server. */
async function serverRun(): Promise<number> {
  const t0 = performance.now();
  const ids: string[] = [];
  for (const f of files) ids.push((await client.files.upload(new Blob([f.bytes as Uint8Array<ArrayBuffer>]), { filename: f.name, mime: "application/pdf" })).fileId);
  const done = await client.workflows.runAndWait(workflow.id, ids);
  if (done.run.status !== "succeeded") throw new Error(`the server run ${done.run.status}: ${done.run.error?.message ?? ""}`);
  for (const id of done.run.outputFileIds) await (await client.files.download(id)).arrayBuffer();
  return performance.now() - t0;
}

/** In a fresh profile: sign in, open the editor's run dialog, then two runs on this device. */
async function deviceRuns(): Promise<[number, number]> {
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 60_000 });
    await page.goto(`${server.url}/workflows/${workflow.id}`);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: /^Run / });
    const once = async () => {
      await dialog.getByLabel("Files", { exact: true }).setInputFiles(files.map((f) => ({ name: f.name, mimeType: "application/pdf", buffer: Buffer.from(f.bytes) })));
      const t0 = performance.now();
      await dialog.getByRole("button", { name: "Start run" }).click();
      await dialog.getByRole("status").filter({ hasText: /^(Done|The run)/ }).waitFor({ timeout: 600_000 });
      const ms = performance.now() - t0;
      const status = (await dialog.getByRole("status").textContent()) ?? "";
      if (!status.startsWith("Done on this device")) throw new Error(`the device run did not finish: ${status}`);
      return ms;
    };
    return [await once(), await once()];
  } finally {
    await browser.close();
  }
}

try {
  const [deviceCold, deviceWarm] = await deviceRuns();
  const serverFirst = await serverRun();
  const serverSecond = await serverRun();
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const perFile = (ms: number) => (ms / FILES).toFixed(0);
  console.log(`\n## Workflow on this device vs the server: 5 steps over ${FILES} PDFs (${PAGES} pages each, ${(inputBytes / 1024).toFixed(0)} KB in all)\n`);
  printTable(
    ["engine", "run", "s", "ms / file", "what is timed"],
    [
      ["This device (Chromium)", "cold", s(deviceCold), perFile(deviceCold), "Start run -> done (tools' WASM fetched)"],
      ["This device (Chromium)", "warm", s(deviceWarm), perFile(deviceWarm), "Start run -> done"],
      ["Server", "first", s(serverFirst), perFile(serverFirst), "upload + run + download"],
      ["Server", "second", s(serverSecond), perFile(serverSecond), "upload + run + download"],
    ],
  );
  console.log(`\n${watch.note([server.pid])}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
