/** The retry back-off: exponential from the base, capped, with jitter between half and all of it. */
import { describe, expect, test } from "bun:test";
import { backoffMs, type RetryPolicy } from "./kinds";

const policy: RetryPolicy = { attempts: 8, baseDelayMs: 100, maxDelayMs: 1_000 };

describe("backoffMs", () => {
  test("doubles from the base delay with each failed attempt", () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(policy, a, () => 1))).toEqual([100, 200, 400, 800]);
  });

  test("never waits longer than maxDelayMs", () => {
    expect([5, 6, 20, 1_000].map((a) => backoffMs(policy, a, () => 1))).toEqual([1_000, 1_000, 1_000, 1_000]);
  });

  test("jitter keeps the wait between 50% and 100% of the step", () => {
    expect([1, 3, 9].map((a) => backoffMs(policy, a, () => 0))).toEqual([50, 200, 500]);
    expect([1, 3, 9].map((a) => backoffMs(policy, a, () => 0.5))).toEqual([75, 300, 750]);
    for (let i = 0; i < 200; i++) {
      const wait = backoffMs(policy, 3);
      expect(wait).toBeGreaterThanOrEqual(200);
      expect(wait).toBeLessThanOrEqual(400);
    }
  });
});
