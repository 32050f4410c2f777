/**
 * Registers the service worker (production builds only) and says when the page can work
 * without a network: once the worker has cached the build and controls this page.
 */
export function registerOffline(note: HTMLElement | null): void {
  const say = (text: string) => {
    if (note) note.textContent = text;
  };
  if (!import.meta.env.PROD) return say("Offline use is off in development.");
  if (!("serviceWorker" in navigator)) return say("This browser cannot keep the app for offline use.");
  const controlled = new Promise<void>((resolve) => {
    if (navigator.serviceWorker.controller) resolve();
    else navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true });
  });
  say("Preparing offline use…");
  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then(() => controlled)
    .then(
      () => say("Ready to work offline."),
      (err: unknown) => say(`Offline use is not available: ${(err as Error)?.message ?? err}`),
    );
}
