import { describe, expect, test } from "vitest";
import type { RunDetail, Step } from "@vektor/shared/schemas/workflow";
import { adviceFor, elapsed, formatDuration, MIN_BAR, nestSteps, stepWord, timeLeft, timeline, toneOf, withStep } from "./run-view";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const T0 = Date.parse(at(0));

describe("stepWord", () => {
  const going = { status: "running", finishedAt: null } as const;
  test("pending reads as queued while the run goes on", () => {
    expect(stepWord({ status: "pending", finishedAt: null }, going)).toBe("queued");
    expect(stepWord({ status: "running", finishedAt: null }, going)).toBe("running");
    expect(stepWord({ status: "waiting_approval", finishedAt: null }, { status: "waiting_approval", finishedAt: null })).toBe("waiting_approval");
  });
  test("steps the run's end closed read cancelled in a cancelled run, skipped in a failed one", () => {
    const cancelled = { status: "cancelled", finishedAt: at(10) } as const;
    expect(stepWord({ status: "skipped", finishedAt: at(10) }, cancelled)).toBe("cancelled");
    expect(stepWord({ status: "running", finishedAt: null }, cancelled)).toBe("cancelled");
    expect(stepWord({ status: "pending", finishedAt: null }, { status: "failed", finishedAt: at(10) })).toBe("skipped");
    expect(stepWord({ status: "skipped", finishedAt: at(10) }, { status: "failed", finishedAt: at(10) })).toBe("skipped");
  });
  test("a step skipped on its own before the cancel stays skipped; ended steps keep their status", () => {
    expect(stepWord({ status: "skipped", finishedAt: at(3) }, { status: "cancelled", finishedAt: at(10) })).toBe("skipped");
    expect(stepWord({ status: "succeeded", finishedAt: at(3) }, { status: "cancelled", finishedAt: at(10) })).toBe("succeeded");
    expect(stepWord({ status: "failed", finishedAt: at(3) }, { status: "failed", finishedAt: at(3) })).toBe("failed");
    expect(stepWord({ status: "skipped", finishedAt: at(3) }, { status: "succeeded", finishedAt: at(4) })).toBe("skipped");
  });
});

describe("toneOf", () => {
  test("each status word has its colour family; an unknown word is idle", () => {
    expect(["queued", "running", "succeeded", "failed", "waiting_approval", "skipped", "cancelled"].map(toneOf)).toEqual(["idle", "busy", "good", "bad", "wait", "off", "off"]);
    expect(toneOf("something new")).toBe("idle");
  });
});

describe("durations", () => {
  test("formatDuration picks the unit a person reads", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(950)).toBe("950 ms");
    expect(formatDuration(1499)).toBe("1 s");
    expect(formatDuration(61_000)).toBe("1 min 1 s");
    expect(formatDuration(120_000)).toBe("2 min");
    expect(formatDuration(3_720_000)).toBe("1 h 2 min");
    expect(formatDuration(7_200_000)).toBe("2 h");
    expect(formatDuration(-5)).toBe("0 ms");
  });
  test("elapsed runs to now while unfinished and is null before the start", () => {
    expect(elapsed(null, null, T0)).toBeNull();
    expect(elapsed(at(0), at(3), T0 + 99_000)).toBe(3000);
    expect(elapsed(at(0), null, T0 + 5000)).toBe(5000);
  });
});

describe("timeLeft", () => {
  test("counts down in the largest sensible unit and says when the time is up", () => {
    expect(timeLeft(at(30), T0)).toBe("30 s left");
    expect(timeLeft(at(0), T0)).toBe("timed out");
    expect(timeLeft(at(0), T0 + 1)).toBe("timed out");
    expect(timeLeft(new Date(T0 + 45 * 60_000).toISOString(), T0)).toBe("45 min left");
    expect(timeLeft(new Date(T0 + 24 * 3_600_000).toISOString(), T0)).toBe("24 h left");
    expect(timeLeft(new Date(T0 + 125 * 60_000).toISOString(), T0)).toBe("2 h 5 min left");
    expect(timeLeft(new Date(T0 + 72 * 3_600_000).toISOString(), T0)).toBe("3 days left");
  });
});

describe("timeline", () => {
  test("bars sit along the run's span, in proportion to each step's duration", () => {
    const { bars, spanMs } = timeline(
      [
        { nodeId: "a", startedAt: at(0), finishedAt: at(2) },
        { nodeId: "b", startedAt: at(2), finishedAt: at(10) },
        { nodeId: "c", startedAt: null, finishedAt: null },
      ],
      T0 + 60_000,
    );
    expect(spanMs).toBe(10_000);
    expect(bars).toEqual([
      { nodeId: "a", left: 0, width: 20, ms: 2000 },
      { nodeId: "b", left: 20, width: 80, ms: 8000 },
      { nodeId: "c", left: 0, width: 0, ms: null },
    ]);
  });
  test("a running step's bar grows to now; an instant step still shows", () => {
    const { bars } = timeline(
      [
        { nodeId: "a", startedAt: at(0), finishedAt: at(0) },
        { nodeId: "b", startedAt: at(0), finishedAt: null },
      ],
      T0 + 4000,
    );
    expect(bars[0]).toEqual({ nodeId: "a", left: 0, width: MIN_BAR, ms: 0 });
    expect(bars[1]).toEqual({ nodeId: "b", left: 0, width: 100, ms: 4000 });
  });
  test("no step started: no bars, no span", () => {
    expect(timeline([{ nodeId: "a", startedAt: null, finishedAt: null }], T0)).toEqual({ bars: [{ nodeId: "a", left: 0, width: 0, ms: null }], spanMs: 0 });
  });
});

describe("adviceFor", () => {
  test("known codes say what to do; others get the general hint", () => {
    expect(adviceFor("APPROVAL_REJECTED")).toContain("Retry the failed steps");
    expect(adviceFor("INPUT_INVALID")).toContain("replace the file");
    expect(adviceFor("SOMETHING_ELSE")).toContain("Retry the failed steps");
  });
});

describe("withStep", () => {
  const step = (nodeId: string, status: Step["status"]): Step => ({ nodeId, parentNodeId: null, type: "logic.merge", status, startedAt: null, finishedAt: null, inputFileIds: [], outputFileIds: [], error: null, attempts: 1, jobIds: [], logs: [] });
  const detail = { steps: [step("a", "succeeded"), step("b", "pending")] } as unknown as RunDetail;
  test("a step the stream sent takes its place in order; an unknown one is added; the detail given is left as it was", () => {
    expect(withStep(detail, step("b", "running")).steps.map((s) => `${s.nodeId}:${s.status}`)).toEqual(["a:succeeded", "b:running"]);
    expect(withStep(detail, step("c", "pending")).steps.map((s) => s.nodeId)).toEqual(["a", "b", "c"]);
    expect(detail.steps[1]!.status).toBe("pending");
  });
});

describe("nestSteps", () => {
  test("groups a sub-workflow's steps under their op.workflow step, keeping the run's order", () => {
    const steps = [
      { nodeId: "in", parentNodeId: null },
      { nodeId: "sub", parentNodeId: null },
      { nodeId: "sub/a", parentNodeId: "sub" },
      { nodeId: "sub/inner", parentNodeId: "sub" },
      { nodeId: "sub/inner/b", parentNodeId: "sub/inner" },
      { nodeId: "out", parentNodeId: null },
    ];
    const nested = nestSteps(steps);
    expect([...nested.keys()]).toEqual([null, "sub", "sub/inner"]);
    expect(nested.get(null)!.map((s) => s.nodeId)).toEqual(["in", "sub", "out"]);
    expect(nested.get("sub")!.map((s) => s.nodeId)).toEqual(["sub/a", "sub/inner"]);
    expect(nested.get("sub/inner")!.map((s) => s.nodeId)).toEqual(["sub/inner/b"]);
  });
});
