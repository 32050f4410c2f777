import { describe, expect, test } from "vitest";
import { addAll, pickedText, removeAll, toggle, type Picked } from "./picked";

const f = (n: number) => ({ fileId: `f_${n}`, name: `plan${n}.pdf`, type: "application/pdf", size: 1000 });
const none: Picked = new Map();

describe("the files chosen for a batch", () => {
  test("one by one, all of a search, and none of them again, in the order chosen", () => {
    let p = toggle(none, f(2), true);
    p = addAll(p, [f(1), f(2), f(3)]);
    expect([...p.keys()]).toEqual(["f_2", "f_1", "f_3"]);
    p = toggle(p, f(1), false);
    expect([...p.keys()]).toEqual(["f_2", "f_3"]);
    p = removeAll(p, [f(3), f(4)]);
    expect([...p.keys()]).toEqual(["f_2"]);
    expect(none.size).toBe(0);
  });

  test("says how many are chosen and how many the current page of a search does not show", () => {
    expect(pickedText(none, [], false)).toBe("No file chosen.");
    const p = addAll(none, [f(1), f(2), f(3)]);
    expect(pickedText(p, [f(1)], false)).toBe("3 files chosen.");
    expect(pickedText(p, [f(1)], true)).toBe("3 files chosen (2 not on this page of the search).");
    expect(pickedText(toggle(none, f(1), true), [f(1)], true)).toBe("1 file chosen.");
  });
});
