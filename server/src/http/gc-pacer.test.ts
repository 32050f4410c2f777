import { expect, test } from "bun:test";
import { GcPacer } from "./gc-pacer";

test("a collection is asked for once every `every` requests", () => {
  let collections = 0;
  let clock = 0;
  const pacer = new GcPacer(4, () => collections++, 250, () => (clock += 1000));
  for (let i = 0; i < 3; i++) pacer.tick();
  expect(collections).toBe(0);
  pacer.tick();
  expect(collections).toBe(1);
  for (let i = 0; i < 8; i++) pacer.tick();
  expect(collections).toBe(3);
});

test("under load, collections are at least minGapMs apart", () => {
  let collections = 0;
  let clock = 10_000;
  const pacer = new GcPacer(4, () => collections++, 250, () => clock);
  for (let i = 0; i < 400; i++) {
    pacer.tick();
    clock += 1; // 1,000 requests a second
  }
  // 400 ms of requests: at 0 ms and at 250 ms, not 100 times.
  expect(collections).toBe(2);
  // Once the load is gone the count decides again.
  clock += 1000;
  for (let i = 0; i < 4; i++) pacer.tick();
  expect(collections).toBe(3);
});
