/** Shared bits of the account screens: the signed-in gate and an API error shown in words. */
import type { Account } from "@vektor/shared/schemas/account";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { errorMessage } from "../api/client";
import { useAccount } from "../api/session";

/** Renders `children(account)` for a signed-in person, else a way to sign in. */
export function SignedIn({ what, children }: { what: string; children: (account: Account) => ReactNode }) {
  const account = useAccount();
  if (account.isPending) return <p>Loading…</p>;
  if (account.error) return <ErrorText error={account.error} />;
  if (!account.data)
    return (
      <p>
        <Link to="/sign-in">Sign in</Link> to {what}.
      </p>
    );
  return <>{children(account.data)}</>;
}

/** A problem found in the form (`message`), else the contract's message of a failed call; nothing when neither. */
export function ErrorText({ error, message }: { error: unknown; message?: string }) {
  if (!message && !error) return null;
  return (
    <p role="alert" className="error">
      {message || errorMessage(error)}
    </p>
  );
}

/** A screen for signed-in people: its heading, then `children(account)` or a way to sign in. */
export function SignedInScreen({ title, what, children }: { title: string; what: string; children: (account: Account) => ReactNode }) {
  return (
    <div className="screen">
      <h1>{title}</h1>
      <SignedIn what={what}>{children}</SignedIn>
    </div>
  );
}
