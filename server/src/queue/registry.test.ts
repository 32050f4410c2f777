/** The handler registry refuses to start on a kind with no handler, two handlers, or one the queue does not know. */
import { describe, expect, test } from "bun:test";
import { JobHandlers, type AnyHandler } from "./registry";
import { JOB_KINDS } from "./kinds";
import { noopControl, noopTool } from "./queue.testkit";

/** One handler per kind the queue knows (a kind added later is covered too). */
const complete = (): AnyHandler[] => JOB_KINDS.map((k) => (k === "tool.run" ? noopTool : noopControl(k)));
const named = (kind: string) => ({ ...noopControl("workflow.step"), kind }) as unknown as AnyHandler;

describe("JobHandlers", () => {
  test("a complete set constructs and finds each kind's handler", () => {
    const set = complete();
    const handlers = new JobHandlers(set);
    expect(handlers.tool).toBe(noopTool);
    expect(handlers.control("workflow.step")).toBe(set.find((h) => h.kind === "workflow.step") as ReturnType<JobHandlers["control"]>);
    expect(handlers.control("tool.run")).toBeUndefined();
    expect(handlers.control("email.send")).toBeUndefined();
  });

  test("a kind with no handler is refused, naming every missing kind", () => {
    expect(() => new JobHandlers(complete().filter((h) => h.kind !== "approval.timeout"))).toThrow(/^job handlers: no handler for approval\.timeout$/);
    const kept = ["tool.run", "workflow.step"];
    const missing = JOB_KINDS.filter((k) => !kept.includes(k));
    expect(missing).toContain("retention.sweep");
    expect(() => new JobHandlers(complete().filter((h) => kept.includes(h.kind)))).toThrow(`job handlers: no handler for ${missing.join(", ")}`);
  });

  test("two handlers for one kind are refused", () => {
    expect(() => new JobHandlers([...complete(), noopControl("workflow.step")])).toThrow('job handlers: kind "workflow.step" has two handlers');
  });

  test("a handler for a kind the queue does not know is refused, even one named like an object property", () => {
    expect(() => new JobHandlers([...complete(), named("email.send")])).toThrow('job handlers: unknown kind "email.send"');
    expect(() => new JobHandlers([...complete(), named("constructor")])).toThrow('job handlers: unknown kind "constructor"');
  });
});
