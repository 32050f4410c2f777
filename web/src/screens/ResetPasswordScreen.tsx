/**
 * A forgotten password: without a token, ask for a reset link by e-mail; with the link's
 * `?token=`, set the new password (the link works once; every session of the account ends).
 */
import { Link, useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { useRequestPasswordReset, useResetPassword } from "../api/account";
import { ErrorText } from "../components/Guard";

export function ResetPasswordScreen() {
  const token = new URLSearchParams(window.location.search).get("token");
  return (
    <div className="screen narrow">
      <h1>Reset the password</h1>
      {token ? <NewPassword token={token} /> : <RequestLink />}
    </div>
  );
}

function RequestLink() {
  const [email, setEmail] = useState("");
  const request = useRequestPasswordReset();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email);
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Ask for a reset link">
      <p>We send a link to set a new password, valid for an hour. If this server sends no e-mail, an administrator can set a new password for you.</p>
      <div className="field">
        <label htmlFor="reset-email">Email</label>
        <input id="reset-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div className="actions">
        <button type="submit" disabled={request.isPending}>
          Send the link
        </button>
      </div>
      <ErrorText error={request.error} />
      {request.isSuccess ? <p role="status">If an account has this address, the link is on its way.</p> : null}
    </form>
  );
}

function NewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const reset = useResetPassword();
  const navigate = useNavigate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate({ token, newPassword: password }, { onSuccess: () => void navigate({ to: "/sign-in" }) });
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Set a new password">
      <div className="field">
        <label htmlFor="reset-password">New password</label>
        <input id="reset-password" type="password" autoComplete="new-password" required minLength={8} maxLength={256} value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      <div className="actions">
        <button type="submit" disabled={reset.isPending}>
          Set the password
        </button>
      </div>
      <ErrorText error={reset.error} />
      <p>
        <Link to="/reset-password">Ask for a new link</Link>
      </p>
    </form>
  );
}
