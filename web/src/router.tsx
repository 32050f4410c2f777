/**
 * The app's routes (TanStack Router, typed): one lazily loaded chunk per screen, so the first
 * visit loads only the shell and the screen it opens.
 */
import { createRootRoute, createRoute, createRouter, lazyRouteComponent } from "@tanstack/react-router";
import { Layout } from "./app/Layout";
import { NotFound } from "./components/NotFound";

const rootRoute = createRootRoute({ component: Layout, notFoundComponent: NotFound });

type ScreenModule = Record<string, () => React.ReactNode>;

/** A screen under the layout, its component loaded on first visit (or on hover of its link). */
const screen = <P extends string>(path: P, load: () => Promise<ScreenModule>, name: string) =>
  createRoute({ getParentRoute: () => rootRoute, path, component: lazyRouteComponent(load, name) });

const routeTree = rootRoute.addChildren([
  screen("/", () => import("./screens/convert/ConvertScreen"), "ConvertScreen"),
  screen("/sign-in", () => import("./screens/SignInScreen"), "SignInScreen"),
  screen("/files", () => import("./screens/FilesScreen"), "FilesScreen"),
  screen("/batches", () => import("./screens/batches/BatchesScreen"), "BatchesScreen"),
  screen("/workflows", () => import("./screens/workflows/WorkflowsScreen"), "WorkflowsScreen"),
  // The editor is its own chunk with React Flow, dagre and croner (assets/editor/, not precached).
  screen("/workflows/$id", () => import("./screens/workflows/editor/EditorScreen"), "EditorScreen"),
  screen("/workflows/runs/$runId", () => import("./screens/workflows/RunScreen"), "RunScreen"),
  screen("/tokens", () => import("./screens/TokensScreen"), "TokensScreen"),
  screen("/account", () => import("./screens/AccountScreen"), "AccountScreen"),
  screen("/admin", () => import("./screens/AdminScreen"), "AdminScreen"),
]);

export const router = createRouter({ routeTree, defaultPreload: "intent" });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
