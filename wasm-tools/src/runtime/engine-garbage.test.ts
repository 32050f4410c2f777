import { afterEach, expect, test } from "bun:test";
import { paceGarbage, setGarbageCollector } from "./engine-garbage";

afterEach(() => setGarbageCollector(undefined));

test("a collection every few hundred engine calls at most, and none closer than the minimum gap", async () => {
  let collections = 0;
  setGarbageCollector(() => collections++);
  for (let i = 0; i < 255; i++) paceGarbage();
  expect(collections).toBe(0);
  paceGarbage();
  expect(collections).toBe(1);
  for (let i = 0; i < 256 * 4; i++) paceGarbage(); // well within 50 ms of the first
  expect(collections).toBe(1);
  await Bun.sleep(60);
  for (let i = 0; i < 256; i++) paceGarbage();
  expect(collections).toBe(2);
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
