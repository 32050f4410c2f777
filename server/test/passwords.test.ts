/** NIST SP 800-63B passwords over real HTTP: length only, and no password from the common/breached list. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectApiError, PASSWORD, startTestServer, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => void (srv = await startTestServer()));
afterAll(() => srv.close());

const signUp = (password: string) =>
  fetch(`${srv.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: srv.url },
    body: JSON.stringify({ name: "Pat", email: `pat-${crypto.randomUUID().slice(0, 8)}@example.test`, password }),
  });

describe("passwords (NIST SP 800-63B)", () => {
  for (const listed of ["12345678", "password1", "Password1", "qwertyuiop"]) {
    test(`a listed password (${listed}) is refused with the reason, in the envelope`, async () => {
      const res = await signUp(listed);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
      expect(body.ok).toBe(false);
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(body.error.message).toContain("common or breached passwords");
      expect(res.headers.getSetCookie().some((c) => /session_token=[^;]+/.test(c))).toBe(false);
    });
  }

  test("under 8 characters is refused; no composition rule: 8 lower-case letters off the list pass", async () => {
    expect((await signUp("zq7x")).status).toBe(400);
    expect((await signUp("sunshine")).status).toBe(400); // a plain word on the list
    expect((await signUp("vektorzq")).status).toBe(200);
    expect((await signUp(PASSWORD)).status).toBe(200);
  });

  test("changing to a listed password is refused too, and the old one keeps working", async () => {
    const c = await srv.user();
    const err = await expectApiError(() => c.auth.changePassword({ currentPassword: PASSWORD, newPassword: "iloveyou1" }), "VALIDATION_ERROR", 400);
    expect(err.message).toContain("common or breached passwords");
    await srv.anon().auth.signIn({ email: c.email, password: PASSWORD });
  });
});
