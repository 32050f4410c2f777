/** JobEnds: a recorded end reaches the waits for its job, whether the wait started before or just after it. */
import { describe, expect, test } from "bun:test";
import { JobEnds, type Ended } from "./ends";
import type { JobRow } from "./kinds";

const ended = (id: string): Ended => ({ row: { id, status: "succeeded" } as JobRow, outputs: [{ id: `f-${id}`, filename: "out.pdf", mime: "application/pdf", size: 3 }] });

/** Whether `p` has settled once the queued callbacks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await Bun.sleep(0);
  return done;
}

describe("JobEnds", () => {
  test("every wait for a job gets its end; waits for other jobs do not", async () => {
    const ends = new JobEnds();
    const a = ends.wait("a");
    const a2 = ends.wait("a");
    const b = ends.wait("b");
    ends.ended(ended("a"));
    expect(await a.end).toEqual(ended("a"));
    expect(await a2.end).toEqual(ended("a"));
    expect(await settled(b.end)).toBe(false);
    b.cancel();
  });

  test("an end recorded before the wait began is handed over at once, and only once", async () => {
    const ends = new JobEnds();
    ends.ended(ended("early"));
    expect(await ends.wait("early").end).toEqual(ended("early"));
    const again = ends.wait("early");
    expect(await settled(again.end)).toBe(false);
    again.cancel();
  });

  test("a cancelled wait is not handed the end, which is kept for a later wait instead", async () => {
    const ends = new JobEnds();
    const w = ends.wait("c");
    w.cancel();
    ends.ended(ended("c"));
    expect(await settled(w.end)).toBe(false);
    expect(await ends.wait("c").end).toEqual(ended("c"));
  });

  test("ends nobody waited for are kept only a few: the oldest go first", async () => {
    const ends = new JobEnds();
    for (let i = 0; i < 1000; i++) ends.ended(ended(`j${i}`));
    const oldest = ends.wait("j0");
    expect(await settled(oldest.end)).toBe(false);
    oldest.cancel();
    expect(await ends.wait("j999").end).toEqual(ended("j999"));
  });
});
