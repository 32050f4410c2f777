import { afterEach, expect, test } from "bun:test";
import { paceGarbage, setGarbageCollector } from "./engine-garbage";

afterEach(() => setGarbageCollector(undefined));

test("a collection every few hundred engine calls at most, and none closer than the minimum gap", async () => {
  // Times, not counts, for the gap: a slow or paused machine may let 50 ms pass inside a loop.
  const at: number[] = [];
  setGarbageCollector(() => at.push(performance.now()));
  for (let i = 0; i < 255; i++) paceGarbage();
  expect(at.length).toBe(0);
  paceGarbage();
  expect(at.length).toBe(1);
  for (let i = 0; i < 256 * 4; i++) paceGarbage();
  for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(50);
  const before = at.length;
  await Bun.sleep(60);
  for (let i = 0; i < 256; i++) paceGarbage();
  expect(at.length).toBe(before + 1);
});

test("without a host hook (a browser) nothing is called", () => {
  for (let i = 0; i < 1024; i++) paceGarbage();
  setGarbageCollector(() => {
    throw new Error("not installed yet");
  });
  setGarbageCollector(undefined);
  expect(() => {
    for (let i = 0; i < 1024; i++) paceGarbage();
  }).not.toThrow();
});
