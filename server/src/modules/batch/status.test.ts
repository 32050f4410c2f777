import { describe, expect, test } from "bun:test";
import { batchStatus, countStatuses } from "./status";

describe("batch counters", () => {
  test("each item status adds to its counter; the total counts every item", () => {
    const c = countStatuses(["succeeded", "succeeded", "failed", "running", "queued", "cancelled"]);
    expect(c).toEqual({ total: 6, done: 2, failed: 1, cancelled: 1, running: 1, queued: 1 });
    expect(batchStatus(c, null)).toBe("running");
    expect(batchStatus(countStatuses(["succeeded", "failed"]), null)).toBe("completed");
    expect(batchStatus(countStatuses(["failed", "failed"]), null)).toBe("failed");
    expect(batchStatus(countStatuses(["queued"]), null)).toBe("queued");
  });
});
