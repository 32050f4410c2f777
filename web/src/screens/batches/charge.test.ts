import { describe, expect, test } from "vitest";
import { affordability, chargeOf, chargeText } from "./charge";

const pricing = { baseCredits: 1, perFileCredits: 2 };

describe("the charge of a batch in words", () => {
  test("base + per file x N = total, singular and plural", () => {
    expect(chargeOf(pricing, 3)).toBe(7);
    expect(chargeText(pricing, 3)).toBe("1 credit for the batch + 2 credits per file × 3 files = 7 credits.");
    expect(chargeText({ baseCredits: 5, perFileCredits: 1 }, 1)).toBe("5 credits for the batch + 1 credit per file × 1 file = 6 credits.");
    expect(chargeText({ baseCredits: 0, perFileCredits: 0 }, 2)).toBe("0 credits for the batch + 0 credits per file × 2 files = 0 credits.");
  });

  test("no file chosen: the price list instead of a total", () => {
    expect(chargeText(pricing, 0)).toBe("A batch costs 1 credit plus 2 credits per file. Choose files to see the total.");
  });

  test("the balance left, a shortfall, or the plan's limits", () => {
    const plan = { maxFiles: 20, maxSizeMb: 200 };
    const MB = 1024 * 1024;
    expect(affordability(pricing, 3, MB, 10, plan)).toEqual({ ok: true, text: "Your balance: 10 credits; 3 credits left after this batch." });
    expect(affordability(pricing, 3, MB, 7, plan)).toEqual({ ok: true, text: "Your balance: 7 credits; 0 credits left after this batch." });
    expect(affordability(pricing, 3, MB, 6, plan)).toEqual({ ok: false, text: "Your balance is 6 credits, 1 credit short of this batch." });
    expect(affordability(pricing, 21, MB, 1000, plan)).toEqual({ ok: false, text: "Your plan takes at most 20 files in a batch; 21 files chosen." });
    expect(affordability(pricing, 2, 200 * MB, 1000, plan).ok).toBe(true);
    expect(affordability(pricing, 2, 250.5 * MB, 1000, plan)).toEqual({ ok: false, text: "Your plan takes at most 200 MB in a batch; 250.5 MB chosen." });
    expect(affordability(pricing, 0, 0, 10, plan).ok).toBe(false);
  });
});
