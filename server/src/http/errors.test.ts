/** Which failures read as a full disk, and where: the object store's (507) or the database's (503). */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskFullAnswer, diskFullIn } from "./errors";

describe("diskFullIn", () => {
  test("a file write's ENOSPC or EDQUOT is the object store's, also when wrapped as a cause", () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28 });
    expect(diskFullIn(enospc)).toBe("objects");
    expect(diskFullIn(new Error("upload failed", { cause: Object.assign(new Error("quota"), { code: "EDQUOT" }) }))).toBe("objects");
    expect(diskFullAnswer("objects")).toMatchObject({ code: "STORAGE_FULL" });
  });

  test("PostgreSQL's disk_full (SQLSTATE 53100) under a query error is the database's: 503", () => {
    const pg = Object.assign(new Error('could not extend file "base/5/16384": No space left on device'), { code: "53100", severity: "ERROR" });
    expect(diskFullIn(new Error("Failed query: insert ...", { cause: pg }))).toBe("database");
    expect(diskFullAnswer("database")).toMatchObject({ code: "STORAGE_FULL", status: 503 });
  });

  test("other failures are not a full disk: a missing file, a refused connection, a plain error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vektor-errors-"));
    const missing = await Bun.file(join(dir, "nope")).text().catch((e) => e);
    rmSync(dir, { recursive: true });
    expect(diskFullIn(missing)).toBeNull();
    expect(diskFullIn(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBeNull();
    expect(diskFullIn(new Error("boom"))).toBeNull();
    expect(diskFullIn(null)).toBeNull();
  });
});
