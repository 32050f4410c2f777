/**
 * The frame around every screen: skip link, navigation (Admin only for admins), who is signed
 * in with sign in / sign out, the install button when the browser offers one, the "update
 * available" prompt, and whether the app works offline.
 */
import { Link, Outlet } from "@tanstack/react-router";
import { useAccount, useSignOut } from "../api/session";
import { usePendingApprovalCount } from "../api/workflows";
import { useOnline } from "./online";
import { applyUpdate, install, usePwa, type PwaState } from "./pwa";

const OFFLINE_TEXT: Record<PwaState["offline"], string> = {
  off: "Offline use is off in development.",
  unsupported: "This browser cannot keep the app for offline use.",
  preparing: "Preparing offline use…",
  ready: "Ready to work offline.",
  failed: "Offline use is not available.",
};

const SCREENS = [
  { to: "/", label: "Convert" },
  { to: "/files", label: "Files" },
  { to: "/batches", label: "Batches" },
  { to: "/workflows", label: "Workflows" },
  { to: "/tokens", label: "Tokens" },
  { to: "/account", label: "Account" },
] as const;

export function Layout() {
  const account = useAccount();
  const signOut = useSignOut();
  const pwa = usePwa();
  const online = useOnline();
  const me = account.data;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          Vektor
        </Link>
        <nav aria-label="Main">
          <ul>
            {SCREENS.map((s) => (
              <li key={s.to}>
                <Link to={s.to} activeProps={{ "aria-current": "page" }} activeOptions={{ exact: s.to === "/" }}>
                  {s.label}
                </Link>
              </li>
            ))}
            {me ? (
              <li>
                <ApprovalsLink />
              </li>
            ) : null}
            {me?.role === "admin" ? (
              <li>
                <Link to="/admin" activeProps={{ "aria-current": "page" }}>
                  Admin
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
        <div className="session">
          {pwa.canInstall ? (
            <button type="button" className="secondary" onClick={() => void install()}>
              Install app
            </button>
          ) : null}
          {me ? (
            <>
              <span className="who">{me.email}</span>
              <button type="button" className="secondary" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
                Sign out
              </button>
            </>
          ) : account.isPending ? null : (
            <Link to="/sign-in">Sign in</Link>
          )}
        </div>
      </header>
      {pwa.updateWaiting ? (
        <div className="banner" aria-live="polite">
          A new version of Vektor is available.{" "}
          <button type="button" onClick={applyUpdate}>
            Reload
          </button>
        </div>
      ) : null}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer>
        <p aria-live="polite">
          {online ? "" : "You are offline. "}
          {OFFLINE_TEXT[pwa.offline]}
        </p>
        <p>
          <a href="/docs">API reference</a>
        </p>
      </footer>
    </>
  );
}

/** The approvals inbox, with how many wait on the signed-in person. */
function ApprovalsLink() {
  const count = usePendingApprovalCount(true).data ?? 0;
  return (
    <Link to="/approvals" activeProps={{ "aria-current": "page" }}>
      Approvals{count ? ` (${count})` : ""}
    </Link>
  );
}
