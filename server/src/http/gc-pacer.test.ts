import { expect, test } from "bun:test";
import { GcPacer } from "./gc-pacer";

test("a collection is asked for once every `every` requests", () => {
  let collections = 0;
  const pacer = new GcPacer(4, () => collections++);
  for (let i = 0; i < 3; i++) pacer.tick();
  expect(collections).toBe(0);
  pacer.tick();
  expect(collections).toBe(1);
  for (let i = 0; i < 8; i++) pacer.tick();
  expect(collections).toBe(3);
});
