/**
 * The frame around every screen: skip link, navigation (Admin only for admins), who is signed
 * in with sign in / sign out, the install button when the browser offers one, the "update
 * available" prompt, and whether the app works offline. On narrow screens (styles.css) the
 * header is one row, the brand and a Menu button that discloses the navigation and session.
 */
import { Link, Outlet, useRouterState } from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useRef, useState, type FocusEvent, type RefObject } from "react";
import { useAccount, useSignOut } from "../api/session";
import { useOnline } from "./online";
import { applyUpdate, install, usePwa, type PwaState } from "./pwa";

const OFFLINE_TEXT: Record<PwaState["offline"], string> = {
  off: "Offline use is off in development.",
  unsupported: "This browser cannot keep the app for offline use.",
  preparing: "Preparing offline use…",
  ready: "Ready to work offline.",
  failed: "Offline use is not available.",
};

const ApprovalsLink = lazy(() => import("./ApprovalsLink").then((m) => ({ default: m.ApprovalsLink })));

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
  const menu = useMenu();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top" ref={menu.header} onBlur={menu.onBlur}>
        <Link to="/" className="brand">
          Vektor
        </Link>
        <button type="button" className="menu-toggle" ref={menu.toggle} aria-expanded={menu.open} aria-controls="site-menu" onClick={() => menu.setOpen(!menu.open)}>
          <span aria-hidden="true">☰ </span>Menu
        </button>
        <div id="site-menu" className="site-menu" data-open={menu.open}>
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
                  <Suspense fallback={<Link to="/approvals">Approvals</Link>}>
                    <ApprovalsLink />
                  </Suspense>
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

/**
 * The narrow header's menu, a disclosure: the button toggles it; Escape closes it (focus back
 * on the button when it was inside), as do a click outside the header, focus leaving the header
 * and moving to another screen. On wide screens CSS shows the menu's contents whatever `open`.
 */
function useMenu(): {
  open: boolean;
  setOpen: (open: boolean) => void;
  header: RefObject<HTMLElement | null>;
  toggle: RefObject<HTMLButtonElement | null>;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
} {
  const [open, setOpen] = useState(false);
  const header = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const path = useRouterState({ select: (s) => s.location.pathname });
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      if (header.current?.contains(document.activeElement)) toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!header.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next && !event.currentTarget.contains(next)) setOpen(false);
  };
  return { open, setOpen, header, toggle, onBlur };
}
