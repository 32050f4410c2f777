import { describe, expect, it } from "vitest";
import { formatUtc, nextFires } from "./cron";

describe("nextFires", () => {
  const from = new Date("2025-03-01T10:07:30Z");

  it("gives the next five fire times in UTC, as the server reads the expression", () => {
    const r = nextFires("*/15 * * * *", 5, from);
    expect(r.ok && r.times.map(formatUtc)).toEqual(["2025-03-01 10:15 UTC", "2025-03-01 10:30 UTC", "2025-03-01 10:45 UTC", "2025-03-01 11:00 UTC", "2025-03-01 11:15 UTC"]);
  });

  it("reads hours in UTC, whatever the browser's zone", () => {
    const r = nextFires("0 6 * * 1-5", 2, from);
    // 1 March 2025 is a Saturday: the next weekdays are Monday the 3rd and Tuesday the 4th.
    expect(r.ok && r.times.map((t) => t.toISOString())).toEqual(["2025-03-03T06:00:00.000Z", "2025-03-04T06:00:00.000Z"]);
  });

  it("says why an expression is not a schedule", () => {
    expect(nextFires("", 5, from)).toEqual({ ok: false, message: expect.stringContaining("Type a cron expression") });
    expect(nextFires("0 0 * * * *", 5, from)).toEqual({ ok: false, message: expect.stringContaining("exactly 5 fields") });
    expect(nextFires("61 * * * *", 5, from)).toEqual({ ok: false, message: expect.stringContaining("Not a valid cron expression") });
    expect(nextFires("0 0 30 2 *", 5, from)).toEqual({ ok: false, message: expect.stringMatching(/never fires|Not a valid/) });
  });
});
