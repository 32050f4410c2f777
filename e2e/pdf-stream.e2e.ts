/**
 * A big PDF streamed into mupdf in the browser (issue 27): on this device the tool worker is given
 * the picked File itself (ToolInput.blob, with its first bytes), and the PDF tools that read their
 * input only through mupdf's Stream (io.blobInputs) read it a window at a time with FileReaderSync,
 * instead of reading the whole file into the worker first. In Debian's Chromium against the real
 * server, signed out: a PDF of E2E_PDF_STREAM_MB (default 64) MB of scanned-looking pages (random
 * pixels, a line of text on each) made in code; pdf.extract-text reads every page's line, and
 * pdf.split takes one page out whole. The renderer's peak memory before and after each run is
 * printed for the record (never asserted: a CI machine differs).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeImagePdf } from "@vektor/wasm-tools/testing/big-pdf";
import { PDFDocument } from "pdf-lib";
import type { Browser, Page } from "playwright-core";
import { closeDevicePage, openDevicePage, type DevicePage } from "./support/device-page";
import { makePdf } from "./support/inputs";
import { downloadResults, rendererMemory, runOnDevice } from "./support/web";

const SIZE_MB = Number(process.env.E2E_PDF_STREAM_MB ?? 64);
const PAGE_MB = 8;
const dir = mkdtempSync(join(tmpdir(), "pdf-stream-e2e-"));
let opened: Partial<DevicePage> = {};
let browser: Browser;
let page: Page;

const line = (n: number) => `Scanned page ${n}`;

beforeAll(async () => void ({ browser, page } = opened = await openDevicePage()), 120_000);

afterAll(async () => {
  await closeDevicePage(opened);
  rmSync(dir, { recursive: true, force: true });
});

describe("a big PDF streamed into mupdf in the browser", () => {
  test(`pdf.extract-text and pdf.split read a ${SIZE_MB} MB PDF through FileReaderSync on this device: every page's text, one page taken out whole`, async () => {
    // mupdf loaded first on a small file, so the big runs' memory is the file's alone.
    const small = join(dir, "small.pdf");
    await Bun.write(small, await makePdf(2, "Warm-up"));
    await runOnDevice(page, small, "pdf.extract-text", { format: "txt" });
    const tools = page.workers().find((w) => w.url().includes("tool"));
    expect(tools).toBeDefined();
    // What the Blob reads need: a dedicated worker with FileReaderSync.
    expect(await tools!.evaluate(() => typeof FileReaderSync)).toBe("function");
    const pages = Math.max(2, Math.round(SIZE_MB / PAGE_MB));
    const big = join(dir, "scans.pdf");
    const size = writeImagePdf(big, pages, PAGE_MB * 1024 * 1024, line);
    const record = [`${(size / 2 ** 20).toFixed(1)} MB PDF, ${pages} pages; renderer memory at first: ${await rendererMemory(browser)}`];

    // extract-text writes a few lines: what it holds is what reading the input costs.
    let started = performance.now();
    await runOnDevice(page, big, "pdf.extract-text", { format: "json" });
    record.push(`after pdf.extract-text (${((performance.now() - started) / 1000).toFixed(1)} s): ${await rendererMemory(browser)}`);
    const [report] = await downloadResults(page);
    expect(report!.name).toBe("scans.json");
    const texts = (JSON.parse(new TextDecoder().decode(report!.bytes)) as { pages: { number: number; text: string }[] }).pages;
    expect(texts.map((p) => [p.number, p.text.trim()])).toEqual(Array.from({ length: pages }, (_, i) => [i + 1, line(i + 1)]));

    started = performance.now();
    await runOnDevice(page, big, "pdf.split", { ranges: String(pages) });
    record.push(`after pdf.split of page ${pages} (${((performance.now() - started) / 1000).toFixed(1)} s): ${await rendererMemory(browser)}`);
    console.log(`[pdf-stream] ${record.join("\n  ")}`);
    const [part] = await downloadResults(page);
    expect(part!.name).toBe(`scans-p${pages}.pdf`);
    expect((await PDFDocument.load(part!.bytes)).getPageCount()).toBe(1);
    // The page's image is random pixels: no filter shrinks it, so the part holds all of it.
    expect(part!.bytes.length).toBeGreaterThan(PAGE_MB * 1024 * 1024 * 0.99);
  }, 900_000);
});
