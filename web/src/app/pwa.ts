/**
 * The service worker seen from the page (workbox-window): registers /sw.js in production
 * builds, says when the page works offline (the worker controls it), when a new version waits
 * ("update available, reload"), and keeps the browser's install offer for the install button.
 * Exposed as one small store for useSyncExternalStore.
 */
import { useSyncExternalStore } from "react";
import { Workbox } from "workbox-window";

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

export interface PwaState {
  offline: "off" | "unsupported" | "preparing" | "ready" | "failed";
  updateWaiting: boolean;
  canInstall: boolean;
}

let state: PwaState = { offline: "off", updateWaiting: false, canInstall: false };
const listeners = new Set<() => void>();
let workbox: Workbox | null = null;
let installEvent: BeforeInstallPromptEvent | null = null;
/** Set by the Reload button: the next controller change is the accepted update. */
let reloadOnControl = false;

function set(patch: Partial<PwaState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function startPwa(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    // Keep the offer for our own button instead of the browser's mini bar.
    event.preventDefault();
    installEvent = event as BeforeInstallPromptEvent;
    set({ canInstall: true });
  });
  window.addEventListener("appinstalled", () => set({ canInstall: false }));
  if (!import.meta.env.PROD) return;
  if (!("serviceWorker" in navigator)) return set({ offline: "unsupported" });
  set({ offline: navigator.serviceWorker.controller ? "ready" : "preparing" });
  workbox = new Workbox("/sw.js", { scope: "/" });
  workbox.addEventListener("waiting", () => set({ updateWaiting: true }));
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The person accepted the update: the new version now controls the page. Not workbox's
    // `controlling` event with `isUpdate`: that is false in the tab of the first visit (nothing
    // controlled it when it registered), so an update found later in that tab never reloaded.
    if (reloadOnControl) window.location.reload();
    else set({ offline: "ready" });
  });
  workbox.register().catch(() => set({ offline: "failed" }));
  void dropLegacyCaches();
}

/** The hand-written service worker of earlier versions kept the whole build (~94 MB) in `vektor-app-*` caches. */
async function dropLegacyCaches(): Promise<void> {
  if (typeof caches === "undefined") return;
  for (const name of await caches.keys()) if (name.startsWith("vektor-app-")) await caches.delete(name);
}

/** Lets the waiting version take over; the page reloads once it controls. */
export function applyUpdate(): void {
  reloadOnControl = true;
  workbox?.messageSkipWaiting();
}

export async function install(): Promise<void> {
  const event = installEvent;
  if (!event) return;
  installEvent = null;
  set({ canInstall: false });
  await event.prompt();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const usePwa = () => useSyncExternalStore(subscribe, () => state);
