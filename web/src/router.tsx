/**
 * The app's routes (TanStack Router, typed): one lazily loaded chunk per screen, so the first
 * visit loads only the shell and the screen it opens. Who may open a screen is its route's
 * `beforeLoad` (components/Guard.tsx), checked before the screen's chunk loads.
 */
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent } from "@tanstack/react-router";
import { queries } from "./api/queries";
import { Layout } from "./app/Layout";
import { signInSearch } from "./app/back-to";
import { GuardError, requireAdmin, requireSignedIn, type RouterContext } from "./components/Guard";
import { NotFound } from "./components/NotFound";
import { convertSearch } from "./screens/convert/convert-search";

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Layout, notFoundComponent: NotFound });

type ScreenModule = Record<string, () => React.ReactNode>;

/** Who may open a screen: anyone, a signed-in account (else sign in and come back), an administrator. */
type Access = "anyone" | "signed-in" | "admin";
const CHECKS = { anyone: undefined, "signed-in": requireSignedIn, admin: requireAdmin } as const;

/** A screen under the layout, its component loaded on first visit (or on hover of its link). */
const screen = <P extends string>(path: P, load: () => Promise<ScreenModule>, name: string, access: Access = "anyone") =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: lazyRouteComponent(load, name),
    beforeLoad: CHECKS[access],
    ...(access === "anyone" ? {} : { errorComponent: GuardError }),
  });

/** Sign-in, with the way back to the screen that sent the visitor here (`?redirect=`). */
const signIn = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: signInSearch,
  component: lazyRouteComponent(() => import("./screens/SignInScreen"), "SignInScreen"),
});

/** Convert, with the stored files to start from (`?files=`, from Files' "Run a tool on these"). */
const convert = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  validateSearch: convertSearch,
  component: lazyRouteComponent(() => import("./screens/convert/ConvertScreen"), "ConvertScreen"),
});

/** Batches, `?open=<batchId>` the batch shown open (the list's Open, a credit history link). */
const batches = createRoute({
  getParentRoute: () => rootRoute,
  path: "/batches",
  validateSearch: (search: Record<string, unknown>): { open?: string } => (typeof search.open === "string" && search.open ? { open: search.open } : {}),
  component: lazyRouteComponent(() => import("./screens/batches/BatchesScreen"), "BatchesScreen"),
  beforeLoad: requireSignedIn,
  errorComponent: GuardError,
});

const routeTree = rootRoute.addChildren([
  convert,
  signIn,
  screen("/reset-password", () => import("./screens/ResetPasswordScreen"), "ResetPasswordScreen"),
  screen("/files", () => import("./screens/FilesScreen"), "FilesScreen", "signed-in"),
  batches,
  screen("/workflows", () => import("./screens/workflows/WorkflowsScreen"), "WorkflowsScreen", "signed-in"),
  // The editor is its own chunk with React Flow, dagre and croner (assets/editor/, not precached).
  screen("/workflows/$id", () => import("./screens/workflows/editor/EditorScreen"), "EditorScreen", "signed-in"),
  screen("/workflows/runs", () => import("./screens/workflows/runs/RunsScreen"), "RunsScreen", "signed-in"),
  screen("/workflows/runs/$runId", () => import("./screens/workflows/RunScreen"), "RunScreen", "signed-in"),
  screen("/approvals", () => import("./screens/workflows/runs/ApprovalsScreen"), "ApprovalsScreen", "signed-in"),
  screen("/tokens", () => import("./screens/TokensScreen"), "TokensScreen", "signed-in"),
  screen("/account", () => import("./screens/AccountScreen"), "AccountScreen", "signed-in"),
  screen("/admin", () => import("./screens/AdminScreen"), "AdminScreen", "admin"),
]);

export const router = createRouter({
  routeTree,
  context: { queries },
  defaultPreload: "intent",
  // Shown while a route's check waits for the account (a first visit to a signed-in screen).
  defaultPendingComponent: () => <p>Loading…</p>,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
