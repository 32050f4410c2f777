import { describe, expect, test } from "vitest";
import { validationSentences } from "./error-sentences";

describe("validation messages as sentences", () => {
  test("the server's shape refusals, one sentence a field", () => {
    expect(validationSentences("body.amount: Expected integer; body.reason: Expected string length greater or equal to 1")).toBe("Amount must be a whole number. Reason must not be empty.");
    expect(validationSentences("body.reason: Property 'reason' is missing; body.reason: Expected property 'reason' to be string but found: undefined")).toBe("Reason is required.");
    expect(validationSentences("body.email: Property 'email' should be email; body.amount: Expected integer")).toBe("Email must be an email address. Amount must be a whole number.");
    expect(validationSentences("body.extra: Property 'extra' should not be provided")).toBe("Extra is not expected here.");
    expect(validationSentences("body.name: Expected property 'name' to be string but found: 5")).toBe("Name must be text.");
    expect(validationSentences("body.expiresInDays: Expected integer to be less or equal to 3650")).toBe("Expires in days must be at most 3650.");
    expect(validationSentences("body.steps.0.notify_secret: Expected string length less or equal to 200")).toBe("Notify secret must be at most 200 characters long.");
    expect(validationSentences("body: Expected object")).toBe("The request must be an object.");
    expect(validationSentences("query.limit: Something new")).toBe("Limit is not valid.");
  });

  test("a message already in words passes unchanged", () => {
    for (const m of ["The batch name must not be blank", "Most files in one batch, free plan (batch.max_files_free) must be a whole number from 1 to 10,000 files.", "limit must be an integer from 1 to 200"]) {
      expect(validationSentences(m)).toBe(m);
    }
  });
});
