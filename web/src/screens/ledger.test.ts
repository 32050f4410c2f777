import { describe, expect, test } from "vitest";
import { ledgerWords } from "./ledger";

describe("a credit ledger entry in plain words", () => {
  test("batch and workflow run charges and refunds link to what they paid for", () => {
    expect(ledgerWords({ reason: "batch", ref: "b_1" })).toEqual({ text: "Charge for a batch", link: { to: "/batches", search: { open: "b_1" } } });
    expect(ledgerWords({ reason: "batch_cancel_refund", ref: "b_1" }).link).toEqual({ to: "/batches", search: { open: "b_1" } });
    expect(ledgerWords({ reason: "workflow_run", ref: "run_9" })).toEqual({ text: "Charge for a workflow run", link: { to: "/workflows/runs/$runId", params: { runId: "run_9" } } });
    expect(ledgerWords({ reason: "workflow_cancel_refund", ref: "run_9" }).link).toEqual({ to: "/workflows/runs/$runId", params: { runId: "run_9" } });
  });

  test("the batch or workflow named as it is called now", () => {
    expect(ledgerWords({ reason: "batch", ref: "b_1", refName: "Site plans" }).text).toBe("Charge for the batch “Site plans”");
    expect(ledgerWords({ reason: "batch_cancel_refund", ref: "b_1", refName: "Site plans" }).text).toBe("Refund for the files of the batch “Site plans” that never ran (cancelled)");
    expect(ledgerWords({ reason: "batch_cancel_refund", ref: "b_1", refName: null }).text).toBe("Refund for the files of a batch that never ran (cancelled)");
    expect(ledgerWords({ reason: "workflow_run", ref: "run_9", refName: "Nightly" }).text).toBe("Charge for a run of the workflow “Nightly”");
    expect(ledgerWords({ reason: "workflow_cancel_refund", ref: "run_9", refName: "Nightly" }).text).toBe("Refund for the steps of a run of the workflow “Nightly” that never ran (cancelled)");
  });

  test("the sign-up grant, an administrator's adjustment (their own words) and anything else as recorded", () => {
    expect(ledgerWords({ reason: "signup_grant", ref: null })).toEqual({ text: "Credits every new account receives", link: null });
    expect(ledgerWords({ reason: "Thanks for the bug report", ref: "admin:u_1" })).toEqual({ text: "Changed by an administrator: Thanks for the bug report", link: null });
    expect(ledgerWords({ reason: "something_new", ref: "x" })).toEqual({ text: "something_new", link: null });
    expect(ledgerWords({ reason: "batch", ref: null }).link).toBeNull();
  });
});
