import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectToolError, text } from "../../testing/run-tool";
import { drawingFixture, DWG_FIXTURES, runDrawing } from "../test-support";

const SLOW = 120_000;
const R14_MISSING = ["ACAD_TABLE", "MULTILEADER", "WIPEOUT"];
const dir = mkdtempSync(join(tmpdir(), "drawing-dxf-"));

describe("drawing.to-dxf", () => {
  test.each(DWG_FIXTURES)("%s (%s): a DXF of the same version that ogrinfo and drawing.info read with the same entities", async (name, version) => {
    const [out] = await runDrawing("drawing.to-dxf", [drawingFixture(name)]);
    expect(out.mime).toBe("image/vnd.dxf");
    expect(out.name).toBe(name.replace(/\.dwg$/, ".dxf"));
    const path = join(dir, out.name);
    writeFileSync(path, out.bytes);
    expect(execFileSync("ogrinfo", ["-ro", "-so", "-al", path], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })).toMatch(/Feature Count: [1-9]/);
    const [fromDwg] = await runDrawing("drawing.info", [drawingFixture(name)]);
    const [fromDxf] = await runDrawing("drawing.info", [{ name: out.name, bytes: out.bytes }]);
    const [a, b] = [JSON.parse(text(fromDwg)), JSON.parse(text(fromDxf))];
    expect(b).toMatchObject({ format: "dxf", version: version === "AC2.10" ? b.version : version });
    expect(b.layers.map((l: { name: string }) => l.name).sort()).toEqual(a.layers.map((l: { name: string }) => l.name).sort());
    // Every type the DWG's model space holds is written at least as often (the DXF may add types LibreDWG's converter
    // skips), except those the release's DXF cannot hold: R14 had no table, multileader or wipeout entities.
    const short = Object.entries(a.entityCounts as Record<string, number>).filter(([type, count]) => (b.entityCounts[type] ?? 0) < count).map(([type]) => type);
    expect(short).toEqual(version === "AC1014" ? R14_MISSING : []);
  }, SLOW);

  test("a DXF or another file is refused; a damaged DWG is INPUT_INVALID", async () => {
    await expectToolError(runDrawing("drawing.to-dxf", [drawingFixture("sample_r14.dxf")]), "INPUT_INVALID", /is a DXF already/);
    await expectToolError(runDrawing("drawing.to-dxf", [{ name: "x.dwg", bytes: new TextEncoder().encode("hello") }]), "INPUT_INVALID", /not a DWG/);
    const cut = drawingFixture("example_2018.dwg").bytes.slice(0, 20_000);
    await expectToolError(runDrawing("drawing.to-dxf", [{ name: "cut.dwg", bytes: cut }]), "INPUT_INVALID", /damaged or truncated/);
  }, SLOW);
});
