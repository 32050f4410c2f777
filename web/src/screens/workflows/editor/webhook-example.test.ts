import { signWebhook } from "@vektor/shared/client";
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { shellQuote, webhookExample } from "./webhook-example";

describe("webhookExample", () => {
  const url = "http://127.0.0.1:8080/api/workflows/wf_1/hook";

  it("signs '<timestamp>.<body>' with HMAC-SHA-256 under the secret and sends that exact body", () => {
    const text = webhookExample(url, "whs_abc");
    expect(text).toContain("SECRET='whs_abc'");
    expect(text).toContain(`BODY='{"fileIds":[]}'`);
    expect(text).toContain(`printf '%s' "$TS.$BODY" | openssl dgst -sha256 -hmac "$SECRET"`);
    expect(text).toContain('-H "X-Service-Timestamp: $TS"');
    expect(text).toContain('-H "X-Service-Signature: sha256=$SIG"');
    expect(text).toContain('--data-raw "$BODY"');
    expect(text).toContain(`curl -sS -X POST '${url}'`);
  });

  it("computes what the server checks (the client's signWebhook is the server's rule)", async () => {
    const mac = createHmac("sha256", "whs_abc").update('1700000000.{"fileIds":[]}').digest("hex");
    expect(await signWebhook("whs_abc", 1700000000, '{"fileIds":[]}')).toBe(`sha256=${mac}`);
  });

  it("names the secret's place when it is not known any more", () => {
    expect(webhookExample(url, null)).toContain("SECRET='<the secret shown when the webhook was added or rotated>'");
  });

  it("quotes anything for a POSIX shell", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('{"a":"$HOME"}')).toBe(`'{"a":"$HOME"}'`);
  });
});
