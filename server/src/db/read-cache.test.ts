import { describe, expect, test } from "bun:test";
import { ReadCache } from "./read-cache";

describe("ReadCache", () => {
  test("a kept answer is returned until its table changes", async () => {
    const cache = new ReadCache(60_000);
    let loads = 0;
    const read = () => cache.read("k", ["file"], async () => ++loads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    cache.changed("workflow_run"); // another table: kept
    expect(await read()).toBe(1);
    cache.changed("file");
    expect(await read()).toBe(2);
  });

  test("an answer read while its table changed is returned but not kept", async () => {
    const cache = new ReadCache(60_000);
    let loads = 0;
    const first = await cache.read("k", ["file"], async () => {
      cache.changed("file"); // a write committed while this read ran
      return ++loads;
    });
    expect(first).toBe(1);
    expect(await cache.read("k", ["file"], async () => ++loads)).toBe(2);
  });

  test("answers live at most the lifetime; 0 keeps nothing", async () => {
    const short = new ReadCache(30);
    let loads = 0;
    await short.read("k", ["file"], async () => ++loads);
    await Bun.sleep(60);
    expect(await short.read("k", ["file"], async () => ++loads)).toBe(2);
    const none = new ReadCache(0);
    await none.read("k", ["file"], async () => 1);
    expect(none.size).toBe(0);
  });

  test("a failed read keeps nothing", async () => {
    const cache = new ReadCache(60_000);
    await expect(cache.read("k", ["file"], async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(cache.size).toBe(0);
  });
});
