/**
 * GDAL's host files in the thread's file ledger (runtime/nodefs-ledger.ts), with the real engine
 * and its NODEFS: a dataset's file is recorded while it is open and forgotten when it closes;
 * once the host stops the thread, no operation reaches the host (not even a path's), and the
 * ledger lists what the host must close.
 */
import { describe, expect, test } from "bun:test";
import { closeSync, readlinkSync, writeFileSync } from "node:fs";
import { newFileLedger, setThreadLedger, stopAndDrain } from "../runtime/file-ledger";
import { inHostFolder } from "../testing/host-files";
import { loadGdal } from "./init";
import { featureCollection, manyFeatures } from "./testing/fixtures";
import "./testing/run";

/** The descriptors a ledger holds, as the files they are. */
function heldFiles(ledger: Int32Array): string[] {
  return [...ledger.subarray(1)].filter(Boolean).map((cell) => readlinkSync(`/proc/self/fd/${cell - 1}`));
}

describe("NODEFS in the file ledger", () => {
  test("an open dataset's file is held until it closes; stopped, GDAL reaches nothing and the host closes what it held", async () => {
    await inHostFolder("nodefs-ledger-", async (dir) => {
      const path = `${dir}/sites.geojson`;
      writeFileSync(path, featureCollection(manyFeatures(10)));
      const gdal = await loadGdal();
      const ledger = newFileLedger();
      setThreadLedger(ledger);
      let held: number[] | null = null;
      try {
        await gdal.operation(async (op) => {
          const at = op.mountHost(dir);
          op.close(op.openDataset(`${at}/sites.geojson`, { kind: "vector" }));
          expect([heldFiles(ledger), Atomics.load(ledger, 0)]).toEqual([[], 0]);
          op.openDataset(`${at}/sites.geojson`, { kind: "vector" });
          expect(heldFiles(ledger)).toEqual([path]);
          held = await stopAndDrain(ledger);
          expect(() => op.read(`${at}/sites.geojson`)).toThrow(); // EIO: refused, the host is not reached
          expect(op.exists(`${at}/sites.geojson`)).toBe(false); // a path's lookup is refused too
        });
      } finally {
        setThreadLedger(undefined);
      }
      // The end of the operation could close nothing (refused): the host closes what was held.
      expect(held!.map((fd) => readlinkSync(`/proc/self/fd/${fd}`))).toEqual([path]);
      for (const fd of held!) closeSync(fd);
    });
  });
});
