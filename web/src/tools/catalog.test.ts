/**
 * The Convert screen's tool list from the real registry: the worker's manifests (listManifests,
 * what tool.worker.ts answers) and the server's answer to GET /api/tools/lookup (detailOf, the
 * server's own mapping), merged; tools offered for real files; the input count a tool takes.
 */
import { listManifests } from "@vektor/wasm-tools";
import { describe, expect, test } from "vitest";
import { detailOf } from "../../../server/src/tools/catalog";
import { countProblem, mergeTools, toolsFor, type ToolInfo } from "./catalog";

const manifests = listManifests();
const details = manifests.map((m) => detailOf(m, 1024 * 1024 * 1024));
const both = mergeTools(manifests, details);
const bySlug = (tools: ToolInfo[], slug: string) => tools.find((t) => t.slug === slug)!;

describe("mergeTools", () => {
  test("both lists: every tool once, runnable on this device and on the server", () => {
    expect(both.map((t) => t.slug)).toEqual(manifests.map((m) => m.slug));
    expect(both.every((t) => t.onDevice && t.onServer)).toBe(true);
  });

  test("a tool only the server knows is marked server-only, with its io and params", () => {
    const merged = mergeTools(
      manifests.filter((m) => m.slug !== "pdf.merge"),
      details,
    );
    const merge = bySlug(merged, "pdf.merge");
    expect(merge).toMatchObject({ onDevice: false, onServer: true, accepts: ["pdf"], minInputs: 2, maxInputs: 100 });
    expect(merge.params).toEqual(detailOf(manifests.find((m) => m.slug === "pdf.merge")!, 1024 * 1024 * 1024).params);
  });

  test("offline (no server list): the worker's tools only, with their time limits", () => {
    const offline = mergeTools(manifests, undefined);
    expect(offline.every((t) => t.onDevice && !t.onServer)).toBe(true);
    const withLimit = manifests.find((m) => m.limits?.timeoutMs)!;
    expect(bySlug(offline, withLimit.slug).timeoutMs).toBe(withLimit.limits!.timeoutMs);
  });

  test("no worker (it could not start): the server's tools only; neither list: none", () => {
    expect(mergeTools(undefined, details).every((t) => !t.onDevice && t.onServer)).toBe(true);
    expect(mergeTools(undefined, undefined)).toEqual([]);
  });

  test("a manifest without input counts takes exactly one file", () => {
    const metadata = bySlug(both, "pdf.metadata");
    expect([metadata.minInputs, metadata.maxInputs]).toEqual([1, 1]);
  });
});

describe("toolsFor", () => {
  const pdf = { name: "report.pdf", type: "application/pdf" };
  const las = { name: "scan.las", type: "" };

  test("no files: no tools", () => {
    expect(toolsFor(both, [])).toEqual([]);
  });

  test("a PDF (by type or by extension alone) is offered the PDF tools and nothing else", () => {
    const offered = toolsFor(both, [pdf]).map((t) => t.slug);
    expect(offered).toContain("pdf.compress");
    expect(offered.every((slug) => slug.startsWith("pdf."))).toBe(true);
    expect(toolsFor(both, [{ name: "report.pdf", type: "" }]).map((t) => t.slug)).toEqual(offered);
  });

  test("files of two kinds: only tools that take both (none here)", () => {
    expect(toolsFor(both, [pdf, las])).toEqual([]);
  });

  test("a LAS point cloud by its extension is offered the point cloud tools", () => {
    const offered = toolsFor(both, [las]).map((t) => t.slug);
    expect(offered).toContain("pointcloud.info");
    expect(offered.every((slug) => slug.startsWith("pointcloud."))).toBe(true);
  });
});

describe("countProblem", () => {
  test("within the tool's range: none", () => {
    expect(countProblem(bySlug(both, "pdf.merge"), 2)).toBeNull();
    expect(countProblem(bySlug(both, "pdf.compress"), 1)).toBeNull();
  });

  test("outside it: the range in words", () => {
    const merge = bySlug(both, "pdf.merge");
    expect(countProblem(merge, 1)).toBe(`${merge.title} takes 2 to 100 files; 1 chosen.`);
    expect(countProblem(merge, 101)).toBe(`${merge.title} takes 2 to 100 files; 101 chosen.`);
    const compress = bySlug(both, "pdf.compress");
    expect(countProblem(compress, 3)).toBe(`${compress.title} takes exactly 1 file; 3 chosen.`);
  });
});
