import { describe, expect, test } from "vitest";
import { endedOf, progressText } from "./progress";

describe("a batch's progress in words", () => {
  test("status in plain words with what is done, failed and cancelled", () => {
    expect(progressText({ status: "running", total: 10, done: 3, failed: 1 })).toBe("Running: 3 of 10 done, 1 failed.");
    expect(progressText({ status: "queued", total: 2, done: 0, failed: 0 })).toBe("Waiting to start: 0 of 2 done.");
    expect(progressText({ status: "cancelled", total: 5, done: 2, failed: 0, cancelled: 3 })).toBe("Cancelled: 2 of 5 done, 3 cancelled.");
  });

  test("the bar counts every item that ended", () => {
    expect(endedOf({ status: "cancelled", total: 5, done: 2, failed: 1, cancelled: 2 })).toBe(5);
    expect(endedOf({ status: "running", total: 5, done: 2, failed: 1 })).toBe(3);
  });
});
