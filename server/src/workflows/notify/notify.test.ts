import { describe, expect, test } from "bun:test";
import { backoffMs } from "../../queue/kinds";
import { signatureHeader } from "../../lib/webhook-signature";
import type { RunRow } from "../engine";
import { emailMessage, notifyBody, notifyParams } from "./deliveries";
import { smtpOptions } from "./email";
import { NOTIFY_ATTEMPTS, notifyRetryPolicy } from "./retry";
import { deliveryHeaders } from "./webhook";

const run = (over: Partial<RunRow>): RunRow => ({ id: "run_1", status: "succeeded", outputFileIds: ["f1"], errorCode: null, errorMessage: null, ...over }) as RunRow;

describe("bodies", () => {
  test("success carries the outputs; failure and cancel the error, never fileIds", () => {
    expect(notifyBody(run({}))).toEqual({ runId: "run_1", status: "succeeded", fileIds: ["f1"] });
    expect(notifyBody(run({ status: "failed", errorCode: "APPROVAL_TIMEOUT", errorMessage: "late" }))).toEqual({ runId: "run_1", status: "failed", error: { code: "APPROVAL_TIMEOUT", message: "late" } });
    expect(notifyBody(run({ status: "cancelled" }))).toEqual({ runId: "run_1", status: "cancelled", error: { code: "CANCELLED", message: "The run was cancelled" } });
  });

  test("notifyParams reads only well-formed values", () => {
    expect(notifyParams(JSON.stringify({ notifyUrl: "https://x.test/h", notifySecret: "12345678" }))).toEqual({ url: "https://x.test/h", secret: "12345678" });
    expect(notifyParams(null)).toEqual({ url: null, secret: null });
    expect(notifyParams("not json")).toEqual({ url: null, secret: null });
    expect(notifyParams(JSON.stringify({ notifyUrl: 5, notifySecret: "" }))).toEqual({ url: null, secret: null });
  });

  test("the e-mail names the workflow, the status, the error and links to the run", () => {
    const m = emailMessage("https://vektor.example", "Drawings", run({ status: "failed", errorCode: "STEP_FAILED", errorMessage: "boom" }));
    expect(m.subject).toBe("Workflow run failed: Drawings");
    expect(m.text).toContain("Error: STEP_FAILED: boom");
    expect(m.text).toContain("https://vektor.example/workflows/runs/run_1");
  });
});

describe("signing", () => {
  test("signed attempts carry the inbound hook's scheme over the exact body; unsigned ones only the delivery id", () => {
    const h = deliveryHeaders({ id: "dlv_1", body: '{"a":1}' }, "secret-123", 1_700_000_000_500);
    expect(h["X-Service-Timestamp"]).toBe("1700000000");
    expect(h["X-Service-Signature"]).toBe(signatureHeader("secret-123", "1700000000", '{"a":1}'));
    expect(h["X-Service-Delivery"]).toBe("dlv_1");
    expect(Object.keys(deliveryHeaders({ id: "dlv_1", body: "{}" }, null))).not.toContain("X-Service-Signature");
  });
});

describe("retry policy", () => {
  test("at least 5 attempts; exponential with jitter, capped at 64x the base and an hour", () => {
    const p = notifyRetryPolicy(30_000);
    expect(p.attempts).toBe(NOTIFY_ATTEMPTS);
    expect(p.attempts).toBeGreaterThanOrEqual(5);
    expect(backoffMs(p, 1, () => 1)).toBe(30_000);
    expect(backoffMs(p, 1, () => 0)).toBe(15_000);
    expect(backoffMs(p, 3, () => 1)).toBe(120_000);
    expect(backoffMs(p, 9, () => 1)).toBe(30_000 * 64);
    expect(notifyRetryPolicy(120_000).maxDelayMs).toBe(3_600_000);
  });
});

describe("smtp", () => {
  test("the transport is never pooled; from= sets the sender; an IP host gets localhost", () => {
    const o = smtpOptions("smtp://u:p@mail.test:2525/?pool=true&from=alerts%40corp.test", "http://127.0.0.1:8080", 10_000);
    expect(o.from).toBe("alerts@corp.test");
    expect(o.transport.url).not.toContain("pool");
    expect(o.transport.socketTimeout).toBe(10_000);
    expect(smtpOptions("smtp://mail.test", "http://127.0.0.1:8080", 1).from).toBe("Vektor <no-reply@localhost>");
    expect(smtpOptions("smtps://mail.test", "https://vektor.example.com", 1).from).toBe("Vektor <no-reply@vektor.example.com>");
    expect(() => smtpOptions("http://mail.test", "http://x.test", 1)).toThrow("smtp://");
  });
});
