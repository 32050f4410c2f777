import { QueryClient } from "@tanstack/react-query";
import { describe, expect, test } from "vitest";
import { isFresher, publishCounters, tick, type Counters } from "./batch-counters";

const running = (done: number): Counters => ({ status: "running", total: 5, done, failed: 0 });
const completed: Counters = { status: "completed", total: 5, done: 5, failed: 0 };
const shown = (queries: QueryClient, id: string) => queries.getQueryData<{ counters: Counters }>(["batch-counters", id])?.counters;

describe("a batch's counters, the newest news wins", () => {
  test("a fetch asked before an event and answered after it does not undo the event (CI's 'Completed' beside 'Running: 3 of 5')", () => {
    const queries = new QueryClient();
    const listAsked = tick();
    publishCounters(queries, "b1", completed, tick()); // the stream's last event
    publishCounters(queries, "b1", running(3), listAsked); // the list's answer, read at 3 of 5
    expect(shown(queries, "b1")).toEqual(completed);
    // A fetch asked after the end shows what it read.
    publishCounters(queries, "b1", { ...completed, done: 4, failed: 1, status: "failed" }, tick());
    expect(shown(queries, "b1")?.status).toBe("failed");
  });

  test("while it runs, ended items never go back (an event sent before a fetch's answer but read after it)", () => {
    expect(isFresher({ counters: running(4), at: 1 }, { counters: running(3), at: 2 })).toBe(false);
    expect(isFresher({ counters: running(3), at: 1 }, { counters: running(3), at: 2 })).toBe(true);
    expect(isFresher({ counters: running(3), at: 1 }, { counters: running(4), at: 2 })).toBe(true);
    expect(isFresher(undefined, { counters: running(0), at: 1 })).toBe(true);
  });

  test("a finished batch may run again (retry); older news never replaces newer", () => {
    const failed: Counters = { status: "failed", total: 5, done: 3, failed: 2 };
    expect(isFresher({ counters: failed, at: 1 }, { counters: running(3), at: 2 })).toBe(true);
    expect(isFresher({ counters: running(3), at: 2 }, { counters: failed, at: 1 })).toBe(false);
    expect(isFresher({ counters: running(1), at: 2 }, { counters: running(4), at: 1 })).toBe(false);
  });

  test("each batch keeps its own counters", () => {
    const queries = new QueryClient();
    publishCounters(queries, "a", running(1), tick());
    publishCounters(queries, "b", running(2), tick());
    expect([shown(queries, "a")?.done, shown(queries, "b")?.done]).toEqual([1, 2]);
  });
});
