import { expect, test } from "bun:test";
import { formatDuration } from "./duration";

test("a duration is said in the unit that fits it", () => {
  expect(formatDuration(300)).toBe("300 ms");
  expect(formatDuration(999)).toBe("999 ms");
  expect(formatDuration(1000)).toBe("1 s");
  expect(formatDuration(1500)).toBe("1.5 s");
  expect(formatDuration(45_000)).toBe("45 s");
  expect(formatDuration(300_000)).toBe("5 min");
  expect(formatDuration(90_000)).toBe("1.5 min");
  expect(formatDuration(7_200_000)).toBe("2 h");
});
