import { describe, expect, setSystemTime, test } from "bun:test";
import { Cache } from "./cache";

/** A load that ends when told to, counting how often it ran. */
function gate<V>(value: V) {
  let release!: () => void;
  let runs = 0;
  const opened = new Promise<void>((r) => (release = r));
  return {
    load: async () => {
      runs++;
      await opened;
      return value;
    },
    release: () => release(),
    runs: () => runs,
  };
}

describe("Cache", () => {
  test("callers asking while a key loads share the load", async () => {
    const cache = new Cache<string>(60_000);
    const g = gate("v");
    const both = Promise.all([cache.get("k", g.load), cache.get("k", g.load)]);
    g.release();
    expect(await both).toEqual(["v", "v"]);
    expect(g.runs()).toBe(1);
    expect(cache.peek("k")).toBe("v");
  });

  test("a load that began before its tag was invalidated is answered, not kept, and not joined", async () => {
    const cache = new Cache<string>(60_000);
    const old = gate("old");
    const first = cache.get("k", old.load, { tags: ["file"] });
    cache.invalidate("file");
    const fresh = gate("new");
    const second = cache.get("k", fresh.load, { tags: ["file"] });
    fresh.release();
    expect(await second).toBe("new");
    old.release();
    expect(await first).toBe("old");
    expect(cache.peek("k")).toBe("new");
  });

  test("tags known only from the value still guard the load", async () => {
    const cache = new Cache<{ user: string }>(60_000);
    const g = gate({ user: "u1" });
    const read = cache.get("cookie", g.load, (v) => ({ tags: [v.user] }));
    cache.invalidate("u1");
    g.release();
    await read;
    expect(cache.size).toBe(0);
    await cache.get("cookie", async () => ({ user: "u1" }), (v) => ({ tags: [v.user] }));
    cache.invalidate("u2"); // another tag: kept
    expect(cache.size).toBe(1);
    cache.invalidate("u1");
    expect(cache.size).toBe(0);
  });

  test("invalidating everything drops every value and guards every load", async () => {
    const cache = new Cache<number>(60_000);
    await cache.get("a", async () => 1, { tags: ["x"] });
    const g = gate(2);
    const read = cache.get("b", g.load);
    cache.invalidate();
    g.release();
    expect(await read).toBe(2);
    expect(cache.size).toBe(0);
  });

  test("a value lives at most its lifetime or its own end; false keeps nothing; 0 keeps nothing", async () => {
    const cache = new Cache<number>(30);
    await cache.get("k", async () => 1);
    await Bun.sleep(60);
    expect(cache.peek("k")).toBeUndefined();
    await cache.get("until", async () => 1, () => ({ until: Date.now() - 1 }));
    expect(cache.peek("until")).toBeUndefined();
    await cache.get("failing", async () => 1, () => false);
    expect(cache.size).toBe(0);
    const none = new Cache<number>(0);
    let loads = 0;
    await Promise.all([none.get("k", async () => ++loads), none.get("k", async () => ++loads)]);
    expect(loads).toBe(2);
    expect(none.size).toBe(0);
  });

  test("idle while nothing fresh is kept and nothing loads", async () => {
    const cache = new Cache<number>(30);
    expect(cache.idle).toBe(true);
    const g = gate(1);
    const read = cache.get("k", g.load);
    expect(cache.idle).toBe(false);
    g.release();
    await read;
    expect(cache.idle).toBe(false);
    await Bun.sleep(60);
    expect(cache.idle).toBe(true);
  });

  test("a failed load keeps nothing and the next call loads again", async () => {
    const cache = new Cache<number>(60_000);
    await expect(cache.get("k", async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await cache.get("k", async () => 3)).toBe(3);
  });

  test("reaching the bound drops every value", async () => {
    const cache = new Cache<number>(60_000, 2);
    await cache.get("a", async () => 1);
    await cache.get("b", async () => 2);
    await cache.get("c", async () => 3);
    expect(cache.size).toBe(1);
  });
});

describe("a load that never settles", () => {
  test("is shared for 10 s at most; a later caller loads again and gets an answer", async () => {
    const cache = new Cache<string>(1000);
    let loads = 0;
    const never = () => {
      loads++;
      return new Promise<string>(() => {});
    };
    void cache.get("k", never);
    void cache.get("k", never);
    expect(loads).toBe(1); // the second caller joined the first load
    try {
      setSystemTime(new Date(Date.now() + 10_001));
      expect(await cache.get("k", async () => (loads++, "fresh"))).toBe("fresh");
      expect(loads).toBe(2);
    } finally {
      setSystemTime();
    }
  });
});
