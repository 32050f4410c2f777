/**
 * bim.ifc-to-glb with an output folder (how the server's workers run it): each element's buffer
 * views go to a temporary file there as web-ifc streams them, and the GLB is put together from it
 * at the end. The same bytes as the in-memory writer's, on every fixture, a coordinateToOrigin
 * run and a generated model of walls whose BIN chunk spans several blocks; only the GLB is left in
 * the folder, and a run that fails midway leaves nothing there.
 */
import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { writeWallsIfc } from "../../testing/big-ifc";
import { validateGlb } from "../../common/mesh/reference";
import { execute, type ExecuteContext } from "../../runtime/execute";
import { hostInput, inHostFolder, openFilesIn } from "../../testing/host-files";
import { expectToolError } from "../../testing/run-tool";
import { ifcFixture } from "../test-support";

/** Generous: the first run loads the WASM engine, and CI machines can be busy. */
const SLOW = 120_000;

const toGlb = (input: ToolInput, params: Record<string, unknown> = {}, ctx: ExecuteContext = {}): Promise<ToolOutput[]> => execute("bim.ifc-to-glb", [input], params, ctx);

/** The run's GLB written into `outputDir` and the same run's in memory, as bytes. */
async function bothWays(input: ToolInput, outputDir: string, params: Record<string, unknown> = {}): Promise<[Uint8Array, Uint8Array]> {
  const [onDisk] = await toGlb(input, params, { outputDir });
  const [inMemory] = await toGlb(input, params);
  expect(onDisk.name).toBe(inMemory.name);
  expect(onDisk.mime).toBe("model/gltf-binary");
  expect(onDisk.bytes.length).toBe(0);
  expect(onDisk.path?.startsWith(`${outputDir}/`)).toBe(true);
  expect(readdirSync(outputDir)).toEqual([onDisk.path!.slice(outputDir.length + 1)]); // no temporary file left
  return [new Uint8Array(readFileSync(onDisk.path!)), inMemory.bytes];
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.from(a).equals(Buffer.from(b));

describe("bim.ifc-to-glb into an output folder", () => {
  test("the same bytes as in memory on every fixture and with coordinateToOrigin", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["AC20-FZK-Haus.ifc", {}],
      ["duplex.ifc", {}],
      ["example.ifc", {}],
      ["example.ifc", { coordinateToOrigin: true }],
    ];
    for (const [file, params] of cases) {
      await inHostFolder("ifc-glb-", async (dir, outputDir) => {
        const [onDisk, inMemory] = await bothWays(ifcFixture(file), outputDir, params);
        expect(same(onDisk, inMemory), file).toBe(true);
        expect(openFilesIn(dir)).toEqual([]);
      });
    }
  }, SLOW);

  test("a model of walls from a host file: same bytes, a valid GLB whose BIN chunk spans several written blocks", async () => {
    await inHostFolder("ifc-glb-walls-", async (dir, outputDir) => {
      const path = join(dir, "walls.ifc");
      writeWallsIfc(path, 6);
      const input = hostInput(dir, "walls.ifc", new Uint8Array(readFileSync(path)));
      const [onDisk, inMemory] = await bothWays(input, outputDir);
      expect(onDisk.length).toBeGreaterThan(8 * 1024 * 1024); // more than two of the writer's 4 MB blocks
      expect(same(onDisk, inMemory)).toBe(true);
      const { errors } = await validateGlb(onDisk);
      expect(errors).toEqual([]);
      expect(openFilesIn(dir)).toEqual([]);
    });
  }, SLOW);

  test("a run that fails while meshing or before writing the GLB leaves nothing in the output folder; the next run works", async () => {
    await inHostFolder("ifc-glb-fail-", async (dir, outputDir) => {
      // Walls enough that meshing reports progress (every 64 elements) with bytes already in the temporary file.
      const path = join(dir, "walls.ifc");
      writeWallsIfc(path, 5);
      const input = hostInput(dir, "walls.ifc", new Uint8Array(readFileSync(path)));
      for (const failAt of ["meshing", "writing GLB"]) {
        const onProgress = (fraction: number, message?: string) => {
          if (message === failAt && (failAt !== "meshing" || fraction > 0.6)) throw new Error(`the host gave up at ${failAt}`);
        };
        await expectToolError(toGlb(input, {}, { outputDir, onProgress }), "INPUT_INVALID", new RegExp(`gave up at ${failAt}`));
        expect(readdirSync(outputDir)).toEqual([]);
      }
      const [out] = await toGlb(input, {}, { outputDir });
      expect(readdirSync(outputDir)).toEqual(["walls.glb"]);
      expect(same(new Uint8Array(readFileSync(out.path!)), (await toGlb(input))[0].bytes)).toBe(true);
    });
  }, SLOW);
});
