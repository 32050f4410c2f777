/**
 * When the claim loop claims again at once (runner.ts claimsAgain): the decision after each claim,
 * on its own, since the case it exists for (a job ending between a held-back claim's snapshot and
 * its answer) needs two database connections racing to happen through the runner.
 */
import { describe, expect, test } from "bun:test";
import { claimsAgain } from "./runner";

const quiet = { poked: false, freed: false };

describe("claimsAgain", () => {
  test("took all it asked for and more is due: again; took what there was: no", () => {
    expect(claimsAgain({ more: true, taken: 2, asked: 2 }, quiet)).toBe(true);
    expect(claimsAgain({ more: false, taken: 2, asked: 2 }, quiet)).toBe(false);
    expect(claimsAgain({ more: false, taken: 0, asked: 1 }, quiet)).toBe(false);
  });

  test("a wake-up while the claim was in flight: again, whatever it took", () => {
    expect(claimsAgain({ more: false, taken: 0, asked: 1 }, { poked: true, freed: false })).toBe(true);
    expect(claimsAgain({ more: true, taken: 0, asked: 1 }, { poked: true, freed: false })).toBe(true);
  });

  test("work held back by a limit, and a lane freed while the claim was in flight: again (the job that ended may have freed the limit)", () => {
    expect(claimsAgain({ more: true, taken: 0, asked: 1 }, { poked: false, freed: true })).toBe(true);
    expect(claimsAgain({ more: true, taken: 1, asked: 3 }, { poked: false, freed: true })).toBe(true);
  });

  test("work held back and nothing happened meanwhile: no (the next freed lane or wake-up asks again); a lane freed with nothing held back: no", () => {
    expect(claimsAgain({ more: true, taken: 0, asked: 1 }, quiet)).toBe(false);
    expect(claimsAgain({ more: false, taken: 0, asked: 1 }, { poked: false, freed: true })).toBe(false);
  });
});
