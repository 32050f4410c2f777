/**
 * GIS outputs written to disk in the browser (issue 27): on this device, gis.convert writes its
 * output through a FileSystemSyncAccessHandle into the page's folder of the Origin Private File
 * System and hands it back as a File on disk, which Convert offers without reading it into memory.
 * In Debian's Chromium against the real server, signed out: GeoJSON to GeoPackage (SQLite, written
 * with seeks back) and to CSV, each download checked (features, content) and found in OPFS with
 * the same size (nothing is there when outputs are made in memory); a page reloaded leaves its
 * folder to the next worker, which removes it, a result replaced on screen takes its file with it, and
 * a run cancelled while it writes leaves none.
 * A page without Web Locks gets its outputs as bytes, as before. A GeoJSON of E2E_GIS_OPFS_MB
 * (default 32) MB goes to GeoPackage in both pages, the renderers' peak memory during each run
 * printed for the record (never asserted).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { writePointsGeojson } from "../wasm-tools/src/gis/testing/big-geojson";
import { CHROMIUM, CHROMIUM_ARGS, logPageErrors } from "./support/browser";
import { closeDevicePage, openDevicePage, type DevicePage } from "./support/device-page";
import { makeGeoJson } from "./support/inputs";
import { chromiumPids, downloadResults, engineChosen, fillParams, processMemory, resetPeak, runOnDevice, type Download } from "./support/web";

const SIZE_MB = Number(process.env.E2E_GIS_OPFS_MB ?? 32);
const dir = mkdtempSync(join(tmpdir(), "gis-opfs-e2e-"));
let opened: Partial<DevicePage> = {};
let browser: Browser;
let page: Page;

/** Every file under OPFS's tool-outputs folder, as `<page>/<run>/<file>` with its size (-1 while a worker writes it). */
function opfsOutputs(on: Page): Promise<{ path: string; size: number }[]> {
  return on.evaluate(async () => {
    const found: { path: string; size: number }[] = [];
    const walk = async (folder: FileSystemDirectoryHandle, at: string): Promise<void> => {
      for await (const [name, entry] of (folder as unknown as AsyncIterable<[string, FileSystemHandle]>)) {
        if (entry.kind === "directory") await walk(entry as FileSystemDirectoryHandle, `${at}${name}/`);
        else found.push({ path: `${at}${name}`, size: await (entry as FileSystemFileHandle).getFile().then((f) => f.size, () => -1) }); // -1: open for writing
      }
    };
    const root = await navigator.storage.getDirectory();
    const outputs = await root.getDirectoryHandle("tool-outputs").catch(() => null);
    if (outputs) await walk(outputs, "");
    return found.sort((a, b) => a.path.localeCompare(b.path));
  });
}

/** Reads a downloaded GeoPackage's one feature table with SQLite. */
function readGpkg<T>(download: Download, read: (db: Database, table: string) => T): T {
  const path = join(dir, `${crypto.randomUUID()}.gpkg`);
  writeFileSync(path, download.bytes);
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.query("SELECT table_name FROM gpkg_contents WHERE data_type = 'features'").all() as { table_name: string }[];
    expect(tables.length).toBe(1);
    return read(db, `"${tables[0]!.table_name}"`);
  } finally {
    db.close();
    rmSync(path, { force: true });
  }
}

/** Runs gis.convert on `path` on this device in `on` (default: the page); answers the one download and the OPFS files that appeared for it. */
async function convertOnDevice(path: string, params: Record<string, unknown>, on = page) {
  const before = new Set((await opfsOutputs(on)).map((f) => f.path));
  await runOnDevice(on, path, "gis.convert", params);
  const [download, ...more] = await downloadResults(on);
  expect(more).toEqual([]);
  const added = (await opfsOutputs(on)).filter((f) => !before.has(f.path));
  return { download: download!, added };
}

/** Chromium's processes whose memory is printed: the browser's own and its renderers. */
type Pids = () => Promise<{ main: number; renderers: number[] }>;

/** The launched browser's processes, from its own process list. */
const launchedPids: Pids = async () => ({ main: (await chromiumPids(browser, "browser"))[0]!, renderers: await chromiumPids(browser, "renderer") });

/** A process's command line and parent, from /proc (null once it is gone). */
function procInfo(pid: number): { args: string[]; parent: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Chromium rewrites its children's command lines as one string: split on spaces too.
    return { args: readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0 ]/), parent: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) };
  } catch {
    return null;
  }
}

/**
 * A persistent profile's processes, from /proc (a persistent context has no Browser to ask): the
 * one started with its --user-data-dir and no --type, and the renderers below it (under its zygote).
 */
function profilePids(profile: string): Pids {
  return async () => {
    const all = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).flatMap((p) => {
      const info = procInfo(Number(p));
      return info ? [{ pid: Number(p), ...info }] : [];
    });
    const main = all.find((p) => p.args.includes(`--user-data-dir=${profile}`) && !p.args.some((a) => a.startsWith("--type=")))!.pid;
    const below = (pid: number): boolean => pid === main || (pid > 1 && below(all.find((p) => p.pid === pid)?.parent ?? 0));
    const renderers = all.filter((p) => p.args.includes("--type=renderer") && below(p.parent)).map((p) => p.pid);
    return { main, renderers };
  };
}

const memoryOf = ({ main, renderers }: { main: number; renderers: number[] }) =>
  `renderers ${renderers.map((pid) => `pid ${pid}: ${processMemory(pid)}`).join("; ")}; browser process: ${processMemory(main)}`;

/**
 * The big GeoJSON to GeoPackage in `on`: every point in the download; the peaks of `pids` during
 * the run printed under `label`. Answers the OPFS files that appeared and the download's size.
 */
async function bigToGpkg(on: Page, label: string, pids: Pids = launchedPids) {
  const big = join(dir, "points.geojson");
  if (!existsSync(big)) await writePointsGeojson(big, SIZE_MB);
  const before = await pids();
  [before.main, ...before.renderers].forEach(resetPeak);
  const record = [`${label}: ${(statSync(big).size / 2 ** 20).toFixed(1)} MB GeoJSON; before: ${memoryOf(before)}`];
  const started = performance.now();
  const { download, added } = await convertOnDevice(big, { to: "gpkg" }, on);
  record.push(`after gis.convert to GeoPackage (${((performance.now() - started) / 1000).toFixed(1)} s; peaks since just before): ${memoryOf(await pids())}`);
  console.log(`[gis-opfs] ${record.join("\n  ")}`);
  // The last point's id, from the file's tail: ids count from 0.
  const tail = await Bun.file(big).slice(statSync(big).size - 300).text();
  const points = Number(/"id":(\d+)[^\n]*\n\]\}\n$/.exec(tail)![1]) + 1;
  const [count, last] = readGpkg(download, (db, table) => [
    (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
    (db.query(`SELECT name FROM ${table} ORDER BY rowid DESC LIMIT 1`).get() as { name: string }).name,
  ]);
  expect([count, last]).toEqual([points, `point ${points - 1}`]);
  return { added, size: download.bytes.byteLength };
}

/** Waits up to `ms` (10 s) for `done` (the removal of files is not awaited by the page). */
async function waitFor(done: () => Promise<boolean>, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await done()) && Date.now() < deadline; ) await Bun.sleep(100);
}

beforeAll(async () => void ({ browser, page } = opened = await openDevicePage()), 120_000);

afterAll(async () => {
  await closeDevicePage(opened);
  rmSync(dir, { recursive: true, force: true });
});

describe("GIS outputs on disk in the browser", () => {
  test("GeoJSON to GeoPackage and to CSV on this device: the downloads hold every feature, and each came from a file in OPFS of its size", async () => {
    const small = join(dir, "sites.geojson");
    writeFileSync(small, makeGeoJson());

    const gpkg = await convertOnDevice(small, { to: "gpkg" });
    expect(gpkg.download.name).toBe("sites.gpkg");
    const names = readGpkg(gpkg.download, (db, table) => db.query(`SELECT name FROM ${table} ORDER BY rowid`).all() as { name: string }[]);
    expect(names.map((r) => r.name)).toEqual(["a", "b", "c", "area"]);
    expect(gpkg.added).toEqual([{ path: expect.stringMatching(/^[\w-]+\/[\w-]+\/sites\.gpkg$/), size: gpkg.download.bytes.byteLength }]);

    const csv = await convertOnDevice(small, { to: "csv" });
    expect(csv.download.name).toBe("sites.csv");
    const lines = new TextDecoder().decode(csv.download.bytes).trimEnd().split(/\r?\n/);
    expect(lines.length).toBe(5);
    expect(lines[1]).toContain("POINT (7.01 50.01)");
    expect(lines[4]).toContain("POLYGON");
    expect(csv.added).toEqual([{ path: expect.stringMatching(/^[\w-]+\/[\w-]+\/0\.csv$/), size: csv.download.bytes.byteLength }]);
    // Both runs in this page's one folder; the GeoPackage's file went when its result left the list.
    expect(new Set([...gpkg.added, ...csv.added].map((f) => f.path.split("/")[0])).size).toBe(1);
    await waitFor(async () => !(await opfsOutputs(page)).some((f) => f.path === gpkg.added[0]!.path));
    expect((await opfsOutputs(page)).map((f) => f.path)).toEqual([csv.added[0]!.path]);
  }, 300_000);

  test("a page reloaded leaves its folder of outputs, which the next page's worker removes", async () => {
    const left = new Set((await opfsOutputs(page)).map((f) => f.path.split("/")[0]));
    expect(left.size).toBe(1);
    await page.reload();
    await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
    const small = join(dir, "again.geojson");
    writeFileSync(small, makeGeoJson());
    const { added } = await convertOnDevice(small, { to: "geojson" });
    expect(added.length).toBe(1);
    const folders = async () => new Set((await opfsOutputs(page)).map((f) => f.path.split("/")[0]));
    await waitFor(async () => ![...(await folders())].some((f) => left.has(f)));
    expect([...(await folders())]).toEqual([added[0]!.path.split("/")[0]]);
  }, 300_000);

  test(`a ${SIZE_MB} MB GeoJSON to GeoPackage on this device: every point in the download, written to OPFS`, async () => {
    const { added, size } = await bigToGpkg(page, "outputs on disk (OPFS)");
    expect(added.map((f) => f.size)).toEqual([size]);
  }, 900_000);

  test("a run cancelled while it writes its output leaves no file behind", async () => {
    const big = join(dir, "points.geojson");
    if (!existsSync(big)) await writePointsGeojson(big, SIZE_MB);
    const before = new Set((await opfsOutputs(page)).map((f) => f.path));
    await page.getByLabel("Files", { exact: true }).setInputFiles(big);
    await page.getByLabel("Tool", { exact: true }).selectOption("gis.convert");
    await fillParams(page, { to: "gpkg" });
    await engineChosen(page, "This device");
    await page.getByRole("button", { name: "Run" }).click();
    const added = async () => (await opfsOutputs(page)).filter((f) => !before.has(f.path));
    await waitFor(async () => (await added()).length > 0, 120_000);
    expect((await added()).map((f) => f.path)).toEqual([expect.stringMatching(/\/points\.gpkg$/)]);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("status").filter({ hasText: "Cancelled." }).waitFor({ timeout: 30_000 });
    // The page removes the folder once the stopped worker has let go of the file (retried for up to 15 s).
    await waitFor(async () => (await added()).length === 0, 20_000);
    expect(await added()).toEqual([]);
  }, 300_000);

  test("the same in a browser profile on disk (a person's window, not a test's incognito context, whose OPFS is held in memory)", async () => {
    const profile = mkdtempSync(join(tmpdir(), "gis-opfs-profile-"));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    try {
      const own = logPageErrors(context.pages()[0] ?? (await context.newPage()));
      await own.goto(page.url());
      await own.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
      const small = join(dir, "warm.geojson");
      writeFileSync(small, makeGeoJson());
      await convertOnDevice(small, { to: "csv" }, own); // the engine loaded first: the big run's memory is its own
      const { added, size } = await bigToGpkg(own, "outputs on disk (OPFS), profile on disk", profilePids(profile));
      expect(added.map((f) => f.size)).toEqual([size]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 900_000);

  test("a page without Web Locks (so without a folder on disk) gets its outputs as bytes in memory, as before", async () => {
    const bare = logPageErrors(await browser.newPage({ acceptDownloads: true, viewport: { width: 1280, height: 900 } }));
    try {
      await bare.addInitScript(() => Object.defineProperty(Navigator.prototype, "locks", { get: () => undefined }));
      await bare.goto(page.url());
      await bare.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
      const small = join(dir, "bare.geojson");
      writeFileSync(small, makeGeoJson());
      const { download, added } = await convertOnDevice(small, { to: "gpkg" }, bare);
      expect(readGpkg(download, (db, table) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n)).toBe(4);
      expect(added).toEqual([]);
      // For the record: the same big conversion with its output made in memory.
      expect((await bigToGpkg(bare, "outputs in memory (no OPFS folder)")).added).toEqual([]);
    } finally {
      await bare.close();
    }
  }, 900_000);
});
