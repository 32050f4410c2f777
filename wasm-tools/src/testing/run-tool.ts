/** Calling a tool the way hosts do (through `execute`), and asserting on typed failures. */
import { expect } from "bun:test";
import { ToolError, type ToolErrorCode, type ToolInput, type ToolOutput } from "@vektor/shared/tools/manifest";
import { execute } from "../runtime/execute";

/** Runs `slug` through `execute` and returns its outputs. */
export function runTool(slug: string, inputs: ToolInput[], params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ToolOutput[]> {
  return execute(slug, inputs, params, { signal });
}

/** Awaits `work` and asserts it failed with a ToolError of `code` whose message matches `message`. */
export async function expectToolError(work: Promise<unknown>, code: ToolErrorCode, message?: RegExp): Promise<ToolError> {
  let caught: unknown;
  try {
    await work;
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ToolError);
  const error = caught as ToolError;
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
  return error;
}

/** Text of an output. */
export function text(out: ToolOutput): string {
  return new TextDecoder().decode(out.bytes);
}
