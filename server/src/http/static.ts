/**
 * Serves the built web app (web/dist) at `/`: files with their MIME types (WASM as
 * application/wasm, so browsers compile it while it downloads), a year's cache for the
 * content-hashed files under /assets, revalidation for the rest (index.html, sw.js), and
 * index.html for page paths, so the app's own routes survive a reload. Each file goes out
 * brotli- or gzip-compressed when the build left a precompressed sibling and the request's
 * Accept-Encoding takes it. API, docs, OpenAPI and
 * status paths are never answered here: registered last, every real route wins, and an unknown
 * API path stays the JSON NOT_FOUND envelope. Without a build, `/` says how to make one.
 */
import { Elysia, NotFoundError } from "elysia";
import { existsSync, statSync } from "node:fs";
import { extname, join, resolve, sep } from "node:path";

/** web/dist beside this checkout's server/. */
export const WEB_DIST = resolve(import.meta.dir, "../../../web/dist");

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".wasm": "application/wasm",
  ".data": "application/octet-stream",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** Paths that belong to the server, never to the web app. */
const SERVER_PATHS = /^\/(api|docs|openapi\.json|status)(\/|$)/;
/** Vite's output folder for files whose names carry a content hash. */
const HASHED = /^\/assets\//;

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vektor: web app not built</title></head>
<body><h1>The web app is not built</h1>
<p>Build it with <code>npm start</code> (which builds it when it is missing) or <code>cd web &amp;&amp; bun run build</code>, then reload.</p>
<p>The API is available: <a href="/docs">API reference</a>.</p></body></html>`;

/** Precompressed siblings the build writes (web/vite/precompress.ts), best first: `name.br`, `name.gz`. */
const ENCODINGS = [
  ["br", ".br"],
  ["gzip", ".gz"],
] as const;

/** The codings an Accept-Encoding header allows (q above 0); `*` allows any not named. */
export function acceptedEncodings(header: string | null): Set<string> {
  const allowed = new Set<string>();
  const refused = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    (q && Number(q.slice(2)) <= 0 ? refused : allowed).add(name.trim());
  }
  if (allowed.has("*")) for (const [coding] of ENCODINGS) if (!refused.has(coding)) allowed.add(coding);
  return allowed;
}

/**
 * The file, or its precompressed sibling in the best coding the request accepts, with
 * Content-Encoding; `Vary: Accept-Encoding` whenever a sibling exists, so caches keep them apart.
 */
function fileResponse(path: string, cacheControl: string, acceptEncoding: string | null): Response {
  const headers: Record<string, string> = {
    "content-type": MIME[extname(path).toLowerCase()] ?? "application/octet-stream",
    "cache-control": cacheControl,
  };
  const siblings = ENCODINGS.filter(([, ext]) => isFile(path + ext));
  if (siblings.length === 0) return new Response(Bun.file(path), { headers });
  headers.vary = "Accept-Encoding";
  const accepted = acceptedEncodings(acceptEncoding);
  const chosen = siblings.find(([coding]) => accepted.has(coding));
  if (!chosen) return new Response(Bun.file(path), { headers });
  headers["content-encoding"] = chosen[0];
  // The file's own size, for a progress bar over the decoded bytes (web/src/workers/downloads.ts).
  headers["x-decoded-length"] = String(Bun.file(path).size);
  return new Response(Bun.file(path + chosen[1]), { headers });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The web app under `/`; use it last in the app so API routes take precedence. */
export function staticSite(options: { dir?: string } = {}) {
  const dir = resolve(options.dir ?? WEB_DIST);
  const index = join(dir, "index.html");
  // `all`, not `get`: a GET wildcard would shadow other modules' `all` routes (/api/auth/*).
  return new Elysia({ name: "static-site" }).all(
    "/*",
    ({ request }) => {
      if (request.method !== "GET" && request.method !== "HEAD") throw new NotFoundError();
      let path: string;
      try {
        path = decodeURIComponent(new URL(request.url).pathname);
      } catch {
        throw new NotFoundError();
      }
      if (SERVER_PATHS.test(path)) throw new NotFoundError();
      if (!existsSync(index)) {
        return new Response(NOT_BUILT, { status: 503, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
      }
      const file = resolve(dir, `.${path}`);
      const inside = file === dir || file.startsWith(dir + sep);
      if (inside && !path.endsWith("/") && isFile(file)) {
        return fileResponse(file, HASHED.test(path) ? "public, max-age=31536000, immutable" : "no-cache", request.headers.get("accept-encoding"));
      }
      // A missing file (a stale chunk, a typo) is a 404, not the page: only page paths fall back.
      if (!inside || HASHED.test(path) || extname(path) !== "") throw new NotFoundError();
      return fileResponse(index, "no-cache", request.headers.get("accept-encoding"));
    },
    { parse: "none", detail: { hide: true } },
  );
}
