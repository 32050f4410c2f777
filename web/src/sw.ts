/**
 * The service worker: keeps the whole build (page, worker, every registered family's WASM) in
 * Cache Storage so tools keep working without a network once the page has loaded. Assets are
 * served cache-first (their names carry content hashes); pages network-first with the cached
 * index.html as the offline answer; the API and docs are never touched. The list of files is
 * written into this file at build time (web/vite/precache.ts). A new version installs beside the
 * old one and takes over once no tab uses the old one.
 */
/// <reference lib="webworker" />
export {};
declare const self: ServiceWorkerGlobalScope;

interface PrecacheManifest {
  version: string;
  urls: string[];
}

const MANIFEST: PrecacheManifest = JSON.parse("__VEKTOR_PRECACHE_MANIFEST__");
const PREFIX = "vektor-app-";
const CACHE = `${PREFIX}${MANIFEST.version}`;
/** Paths served by the server, never from the cache. */
const SERVER_ONLY = /^\/(api|docs|openapi\.json|status)(\/|$)/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(MANIFEST.urls)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || SERVER_ONLY.test(url.pathname)) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match(new URL("./index.html", self.registration.scope).href, { cacheName: CACHE })) ?? Response.error()));
    return;
  }
  event.respondWith(caches.match(request, { cacheName: CACHE }).then((hit) => hit ?? fetch(request)));
});
