/**
 * Who may open a route, checked by the router before the screen loads (each guarded route's
 * `beforeLoad` in router.tsx): a signed-out visitor goes to sign in, with the way back; a
 * non-admin on an admin route is told the screen is not theirs. Also the screen frame, the
 * signed-in account for screens behind the check, and an API error shown in words.
 */
import type { Account } from "@vektor/shared/schemas/account";
import type { QueryClient } from "@tanstack/react-query";
import { redirect, useRouteContext, type ErrorComponentProps } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { errorMessage } from "../api/client";
import { accountQuery, useAccount } from "../api/session";

/** What every route's `beforeLoad` is given (RouterProvider's context). */
export interface RouterContext {
  queries: QueryClient;
}

interface GuardArgs {
  context: RouterContext;
  location: { href: string };
}

/** A signed-in route's check: the account (into the route's context), else off to sign in and back. */
export async function requireSignedIn({ context, location }: GuardArgs): Promise<{ account: Account }> {
  // The cached account while fresh; after a sign-in invalidated it, the answer of its refetch.
  const account = await context.queries.fetchQuery(accountQuery);
  if (!account) throw redirect({ to: "/sign-in", search: { redirect: location.href } });
  return { account };
}

/** Thrown by an admin route's check for a signed-in account that is not an administrator. */
export class NotAdmin extends Error {
  constructor() {
    super("This screen is for administrators.");
  }
}

/** An admin route's check: signed in (else as requireSignedIn) and the admin role. */
export async function requireAdmin(args: GuardArgs): Promise<{ account: Account }> {
  const checked = await requireSignedIn(args);
  if (checked.account.role !== "admin") throw new NotAdmin();
  return checked;
}

/** A guarded route's error: not an administrator, the account could not be read, or the screen failed. */
export function GuardError({ error }: ErrorComponentProps) {
  if (error instanceof NotAdmin)
    return (
      <Screen title="Administrators only">
        <p>{error.message}</p>
      </Screen>
    );
  return (
    <div className="screen">
      <ErrorText error={error} />
    </div>
  );
}

/**
 * The signed-in account in a screen behind requireSignedIn: the live query's (kept fresh after a
 * grant or a run), else the one the route checked (a sign-out has cleared the query and the
 * route is on its way to sign-in).
 */
export function useMe(): Account {
  const live = useAccount().data;
  const checked = useRouteContext({ strict: false }) as { account?: Account };
  const me = live ?? checked.account;
  if (!me) throw new Error("useMe is for screens behind requireSignedIn");
  return me;
}

/** A screen's frame: its heading, then its content. */
export function Screen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="screen">
      <h1>{title}</h1>
      {children}
    </div>
  );
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
