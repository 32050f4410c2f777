/**
 * The account features of issue 26 over real HTTP: sessions (list, sign out one or the others),
 * changing the password, resetting it by e-mail (a real SMTP exchange on loopback) or by an
 * admin, and deleting the account with everything it owns (the credit ledger kept, anonymised).
 */
import { VektorClient } from "@vektor/shared/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { resultRows } from "../src/db/client";
import { creditLedger, schema } from "../src/db/schema";
import { makePdf } from "./fixtures";
import { linear } from "./graphs";
import { decodedMail, startMailSink, type MailSink } from "./mail-sink";
import { expectApiError, PASSWORD, startTestServer, waitFor, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => void (srv = await startTestServer()));
afterAll(() => srv.close());

const NEW_PASSWORD = "a brand new passphrase";

/** Another signed-in session of the same account. */
async function secondSession(email: string, password = PASSWORD): Promise<VektorClient> {
  const other = srv.anon();
  await other.auth.signIn({ email, password });
  return other;
}

describe("sessions", () => {
  test("the session cookie is HttpOnly and SameSite=Lax, and not Secure over plain HTTP", async () => {
    const res = await fetch(`${srv.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: srv.url },
      body: JSON.stringify({ name: "Cookie", email: `cookie-${crypto.randomUUID().slice(0, 8)}@example.test`, password: PASSWORD }),
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("svc.session_token="))!;
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  test("the list shows each session once, marks the current one, and never a token", async () => {
    const c = await srv.user();
    const other = await secondSession(c.email);
    const mine = await c.me.sessions();
    expect(mine.length).toBe(2);
    expect(mine.filter((x) => x.current).length).toBe(1);
    expect(mine.map((x) => x.ipAddress)).toEqual(["127.0.0.1", "127.0.0.1"]);
    expect(JSON.stringify(mine)).not.toContain("token");
    const theirs = await other.me.sessions();
    expect(theirs.find((x) => x.current)!.id).not.toBe(mine.find((x) => x.current)!.id);
  });

  test("sign out the others: they get 401 at once, this one goes on", async () => {
    const c = await srv.user();
    const others = [await secondSession(c.email), await secondSession(c.email)];
    expect(await c.me.revokeOtherSessions()).toEqual({ revoked: 2 });
    for (const o of others) await expectApiError(() => o.account(), "UNAUTHORIZED", 401);
    expect((await c.account()).email).toBe(c.email);
    expect((await c.me.sessions()).length).toBe(1);
  });

  test("sign out one session by id; another account's session id is a 404", async () => {
    const c = await srv.user();
    const other = await secondSession(c.email);
    const target = (await c.me.sessions()).find((x) => !x.current)!;
    expect(await c.me.revokeSession(target.id)).toEqual({ revoked: 1 });
    await expectApiError(() => other.account(), "UNAUTHORIZED", 401);
    const stranger = await srv.user();
    const mineNow = (await c.me.sessions())[0];
    await expectApiError(() => stranger.me.revokeSession(mineNow.id), "NOT_FOUND", 404);
    expect((await c.account()).email).toBe(c.email);
  });

  test("sessions need the session cookie, not an API token", async () => {
    const c = await srv.user();
    const { token } = await c.tokens.create({ name: "t" });
    await expectApiError(() => c.withToken(token).me.sessions(), "UNAUTHORIZED", 401);
  });
});

describe("changing the password", () => {
  test("needs the current password; the new one works, the old does not, other sessions end", async () => {
    const c = await srv.user();
    const other = await secondSession(c.email);
    await expectApiError(() => c.auth.changePassword({ currentPassword: "not the password", newPassword: NEW_PASSWORD }), "VALIDATION_ERROR", 400);
    await c.auth.changePassword({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect((await c.account()).email).toBe(c.email);
    await expectApiError(() => other.account(), "UNAUTHORIZED", 401);
    await expectApiError(() => srv.anon().auth.signIn({ email: c.email, password: PASSWORD }), "UNAUTHORIZED", 401);
    await secondSession(c.email, NEW_PASSWORD);
  });
});

describe("a forgotten password", () => {
  let sink: MailSink;
  beforeAll(async () => void (sink = await startMailSink()));
  afterAll(async () => {
    await (await srv.admin()).admin.setConfig("platform_configs", { "email.smtp_url": "" });
    await sink.close();
  });

  test("without SMTP the request says to ask an admin; the admin sets a new password and the user's sessions end", async () => {
    const c = await srv.user();
    await expectApiError(() => srv.anon().auth.requestPasswordReset(c.email), "INVALID_STATE", 409);
    const admin = await srv.admin();
    const { id } = await c.account();
    await expectApiError(() => c.admin.setUserPassword(id, NEW_PASSWORD), "FORBIDDEN", 403);
    await expectApiError(() => admin.admin.setUserPassword(id, "password123"), "VALIDATION_ERROR", 400);
    await expectApiError(() => admin.admin.setUserPassword("no-such-user", NEW_PASSWORD), "NOT_FOUND", 404);
    expect(await admin.admin.setUserPassword(id, NEW_PASSWORD)).toEqual({ userId: id, sessionsRevoked: true });
    const audited = await srv.services.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.target, id));
    expect(audited.map((a) => [a.action, a.actorId])).toEqual([["user.password_set", (await admin.account()).id]]);
    await expectApiError(() => c.account(), "UNAUTHORIZED", 401);
    await secondSession(c.email, NEW_PASSWORD);
  });

  test("with SMTP: a one-time link by e-mail sets a new password and ends the sessions; an unknown address gets the same answer", async () => {
    await (await srv.admin()).admin.setConfig("platform_configs", { "email.smtp_url": sink.url });
    const c = await srv.user();
    const anon = srv.anon();
    const known = await anon.auth.requestPasswordReset(c.email);
    expect(known.status).toBe(true);
    expect(await anon.auth.requestPasswordReset("nobody@example.test")).toEqual(known);
    const mail = await waitFor("the reset e-mail", async () => sink.mails.find((m) => m.to.includes(c.email)), (m) => m !== undefined);
    const text = decodedMail(mail!.raw);
    expect(text).toContain("Subject: Reset your password");
    const token = text.match(/\/reset-password\?token=([\w%-]+)/)?.[1];
    expect(text).toContain(`${srv.url}/reset-password?token=`);
    await expectApiError(() => anon.auth.resetPassword(decodeURIComponent(token!), "12345678"), "VALIDATION_ERROR", 400);
    expect((await anon.auth.resetPassword(decodeURIComponent(token!), NEW_PASSWORD)).status).toBe(true);
    await expectApiError(() => anon.auth.resetPassword(decodeURIComponent(token!), "yet another passphrase"), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.account(), "UNAUTHORIZED", 401);
    await secondSession(c.email, NEW_PASSWORD);
    expect(sink.mails.some((m) => m.to.includes("nobody@example.test"))).toBe(false);
  });
});

describe("deleting the account", () => {
  test("needs the password; leaves no row or stored object of the user, and keeps the ledger anonymised", async () => {
    const c = await srv.user();
    const { id } = await c.account();
    const pdf = await makePdf(1);
    const { fileId } = await c.files.upload(new Blob([pdf]), { filename: "a.pdf", mime: "application/pdf" });
    const w = await c.workflows.create({ name: "gone", graphJson: linear(["in", "source.upload"], ["out", "sink.download"]) });
    const { runId } = await c.workflows.run(w.id, [fileId]);
    await c.workflows.waitFor(runId, {});
    const { batchId } = await c.batches.create({ type: "pdf.compress", fileIds: [fileId] });
    await c.batches.waitFor(batchId);
    await (await c.batches.zip(batchId)).response.arrayBuffer(); // the ZIP is kept in the store too
    await c.tokens.create({ name: "gone" });
    const other = await secondSession(c.email);
    const { db } = srv.services.database;
    const zips = (await db.select({ key: schema.batch.zipKey }).from(schema.batch).where(eq(schema.batch.userId, id))).map((r) => r.key!);
    expect(zips.length).toBe(1);
    const keys = [...(await db.select({ key: schema.file.storageKey }).from(schema.file).where(eq(schema.file.userId, id))).map((r) => r.key)];
    expect(keys.length).toBeGreaterThan(0);
    const ledgerBefore = (await db.select().from(creditLedger).where(eq(creditLedger.userId, id))).length;
    expect(ledgerBefore).toBeGreaterThan(0);

    await expectApiError(() => c.me.delete("not the password"), "VALIDATION_ERROR", 400);
    const gone = await c.me.delete(PASSWORD);
    expect(gone.deleted).toBe(true);
    expect(gone.files).toBe(keys.length);

    await expectApiError(() => c.account(), "UNAUTHORIZED", 401);
    await expectApiError(() => other.account(), "UNAUTHORIZED", 401);
    expect(await c.t.call("GET", "/api/auth/get-session")).toBeNull();
    await expectApiError(() => srv.anon().auth.signIn({ email: c.email, password: PASSWORD }), "UNAUTHORIZED", 401);
    for (const key of [...keys, ...zips]) expect(await srv.services.store.head(key)).toBeNull();
    // Every table with a user column: no row names the user any more.
    for (const [name, table] of Object.entries(schema)) {
      const columns = getTableColumns(table) as Record<string, { name: string }>;
      const userColumn = Object.values(columns).find((col) => col.name === "user_id" || col.name === "owner_id");
      if (!userColumn) continue;
      const [row] = resultRows<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${table} where ${sql.identifier(userColumn.name)} = ${id}`));
      expect([name, Number(row.n)]).toEqual([name, 0]);
    }
    expect((await db.select().from(schema.user).where(eq(schema.user.id, id))).length).toBe(0);
    const anonymised = await db.select().from(creditLedger).where(isNull(creditLedger.userId));
    expect(anonymised.length).toBeGreaterThanOrEqual(ledgerBefore);
  });
});
