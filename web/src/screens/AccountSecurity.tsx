/** The account's sessions, its password and its deletion (issue 26), on the Account screen. */
import type { SessionInfo } from "@vektor/shared/schemas/account";
import { useState, type FormEvent } from "react";
import { useChangePassword, useDeleteAccount, useRevokeSessions, useSessions } from "../api/account";
import { formatDate } from "../components/format";
import { ErrorText } from "../components/Guard";
import { RowButton } from "../components/RowButton";
import { Table } from "../components/Table";
import { deviceOf } from "./device";

export function Sessions() {
  const sessions = useSessions();
  const revoke = useRevokeSessions();
  const others = sessions.data?.filter((x) => !x.current).length ?? 0;
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <ErrorText error={sessions.error ?? revoke.error} />
      {sessions.data?.length ? (
        <Table headers={["Device", "Address", "Signed in", "Last seen", "Actions"]}>
          {sessions.data.map((x) => (
            <SessionRow key={x.id} session={x} busy={revoke.isPending} onRevoke={() => revoke.mutate(x.id)} />
          ))}
        </Table>
      ) : null}
      <div className="actions">
        <button type="button" className="secondary" disabled={revoke.isPending || others === 0} onClick={() => revoke.mutate(undefined)}>
          Sign out other sessions
        </button>
      </div>
    </section>
  );
}

function SessionRow({ session, busy, onRevoke }: { session: SessionInfo; busy: boolean; onRevoke: () => void }) {
  const device = deviceOf(session.userAgent);
  return (
    <tr>
      <td>
        {device}
        {session.current ? <strong> (this session)</strong> : null}
      </td>
      <td>{session.ipAddress ?? "—"}</td>
      <td>{formatDate(session.createdAt)}</td>
      <td>{formatDate(session.lastSeenAt)}</td>
      <td>{session.current ? null : <RowButton action="Sign out" item={`${device} session`} disabled={busy} onClick={onRevoke} />}</td>
    </tr>
  );
}

export function ChangePassword() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [done, setDone] = useState(false);
  const change = useChangePassword();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    change.mutate({ currentPassword: current, newPassword: next }, { onSuccess: () => (setDone(true), setCurrent(""), setNext("")) });
  };
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form onSubmit={submit} aria-label="Change the password">
        <div className="field">
          <label htmlFor="current-password">Current password</label>
          <input id="current-password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-password">New password</label>
          <input id="new-password" type="password" autoComplete="new-password" required minLength={8} maxLength={256} value={next} onChange={(e) => setNext(e.target.value)} />
        </div>
        <p className="hint">At least 8 characters; a few unrelated words make a good one. Common and breached passwords are refused.</p>
        <div className="actions">
          <button type="submit" disabled={change.isPending}>
            Change password
          </button>
        </div>
        <ErrorText error={change.error} />
        {done ? <p role="status">Password changed. Your other sessions were signed out.</p> : null}
      </form>
    </section>
  );
}

export function DeleteAccount() {
  const [password, setPassword] = useState("");
  const remove = useDeleteAccount();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A fresh start at Convert: nothing of the deleted account stays in this page's memory.
    remove.mutate(password, { onSuccess: () => window.location.assign("/") });
  };
  return (
    <section className="card" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete the account</h2>
      <p>This deletes your files, jobs, batches, workflows and API tokens, and signs out every session. It cannot be undone.</p>
      <form onSubmit={submit} aria-label="Delete the account">
        <div className="field">
          <label htmlFor="delete-password">Password, to confirm</label>
          <input id="delete-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <div className="actions">
          <button type="submit" className="danger" disabled={remove.isPending}>
            Delete my account
          </button>
        </div>
        <ErrorText error={remove.error} />
      </form>
    </section>
  );
}
