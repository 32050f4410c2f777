import type { FileRecord } from "@vektor/shared/schemas/file";
import { describe, expect, test } from "vitest";
import { pickReusable, REUSE_MARGIN_MS } from "./reuse";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const record = (fileId: string, over: Partial<FileRecord> = {}): FileRecord => ({
  fileId,
  filename: "plan.pdf",
  mime: "application/pdf",
  size: 10,
  checksum: "a".repeat(64),
  status: "UPLOADED",
  format: "pdf",
  createdAt: new Date(NOW - 3_600_000).toISOString(),
  expiresAt: new Date(NOW + 10 * 3_600_000).toISOString(),
  ...over,
});

describe("pickReusable", () => {
  test("a ready file under the same name is reused", () => {
    expect(pickReusable([record("f_1")], "plan.pdf", NOW)?.fileId).toBe("f_1");
  });

  test("nothing to reuse: no candidates, another name, not ready, about to expire", () => {
    expect(pickReusable([], "plan.pdf", NOW)).toBeNull();
    expect(pickReusable([record("f_1", { filename: "other.pdf" })], "plan.pdf", NOW)).toBeNull();
    expect(pickReusable([record("f_1", { status: "PENDING" })], "plan.pdf", NOW)).toBeNull();
    expect(pickReusable([record("f_1", { expiresAt: new Date(NOW + REUSE_MARGIN_MS - 1).toISOString() })], "plan.pdf", NOW)).toBeNull();
  });

  test("of several, the one kept longest", () => {
    const soon = record("f_soon", { expiresAt: new Date(NOW + 2 * 3_600_000).toISOString() });
    const later = record("f_later", { expiresAt: new Date(NOW + 20 * 3_600_000).toISOString() });
    const renamed = record("f_renamed", { filename: "copy.pdf", expiresAt: new Date(NOW + 99 * 3_600_000).toISOString() });
    expect(pickReusable([soon, renamed, later], "plan.pdf", NOW)?.fileId).toBe("f_later");
  });
});
