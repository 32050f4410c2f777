/** Schedule expressions: five fields in UTC, refused otherwise with a message; fire times of a window. */
import { describe, expect, test } from "bun:test";
import { fireTimes, firesAt, normalizeCron } from "./cron";

const at = (iso: string) => new Date(iso);

describe("normalizeCron", () => {
  test("accepts 5-field expressions, spacing normalized", () => {
    expect(normalizeCron("*/5 * * * *")).toBe("*/5 * * * *");
    expect(normalizeCron("  7\t3 * *   MON ")).toBe("7 3 * * MON");
    expect(normalizeCron("0 0 L * *")).toBe("0 0 L * *");
  });

  test("refuses the issue's bad inputs and other non-5-field forms", () => {
    for (const bad of ["* * *", "61 * * * *", "* * * * * *", "0 0 * * * 2030", "@hourly", "", "   ", "a b c d e", "0 0 31 2 *"]) {
      expect(() => normalizeCron(bad)).toThrow();
    }
    expect(() => normalizeCron(undefined)).toThrow(/config\.cron/);
    expect(() => normalizeCron("* * * * * *")).toThrow(/exactly 5 fields/);
    expect(() => normalizeCron("61 * * * *")).toThrow(/minute/);
    expect(() => normalizeCron("0 0 31 2 *")).toThrow(/never fires/);
  });
});

describe("fireTimes", () => {
  test("every fire time in [from, to), the start included and the end excluded, in UTC", () => {
    expect(fireTimes("*/5 * * * *", at("2025-03-01T10:00:00Z"), at("2025-03-01T10:15:00Z")).map((d) => d.toISOString())).toEqual([
      "2025-03-01T10:00:00.000Z",
      "2025-03-01T10:05:00.000Z",
      "2025-03-01T10:10:00.000Z",
    ]);
    expect(fireTimes("7 10 * * *", at("2025-03-01T10:02:30Z"), at("2025-03-01T10:07:30Z")).map((d) => d.toISOString())).toEqual(["2025-03-01T10:07:00.000Z"]);
    expect(fireTimes("7 10 * * *", at("2025-03-01T10:07:00.001Z"), at("2025-03-01T10:12:00Z"))).toEqual([]);
  });

  test("firesAt tells whether a queued time still belongs to the expression", () => {
    expect(firesAt("7 10 * * *", at("2025-03-01T10:07:00Z"))).toBe(true);
    expect(firesAt("8 10 * * *", at("2025-03-01T10:07:00Z"))).toBe(false);
    expect(firesAt("not a cron", at("2025-03-01T10:07:00Z"))).toBe(false);
  });
});
