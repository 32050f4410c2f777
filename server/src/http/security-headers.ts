/**
 * The security headers of every answer (issue 26): a strict Content-Security-Policy for the web
 * app (its HTML, and the scripts its Web Workers run under, which take the policy of their own
 * script's response), another for the API reference at /docs (Scalar needs what the app does not),
 * and for the API's JSON a policy that lets nothing run or frame it. Every answer also gets
 * nosniff, a Referrer-Policy and a Permissions-Policy; HSTS only when the request came over HTTPS.
 */
import { createHash } from "node:crypto";

/**
 * The web app: scripts, workers and fetches from this origin only; 'wasm-unsafe-eval' compiles
 * the engines' WebAssembly (ffmpeg.wasm, gdal3.js, LibreDWG ...) without allowing eval. Styles are
 * the built stylesheet; React Flow and the app position elements with style attributes, which
 * only `style-src-attr 'unsafe-inline'` allows (no inline <style> element or script is allowed).
 * Images and downloads may be data: and blob: URLs (previews, rasterised pages, results).
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "media-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The Web Workers' own scripts (the tool worker, ffmpeg's job worker, maplibre's worker): a
 * worker runs under the policy of its script's response, and the Emscripten glue of some engines
 * (LibreDWG) builds functions from strings, so workers alone also get 'unsafe-eval'. A worker has
 * no DOM to inject into, and the page itself keeps the strict policy.
 */
export const WORKER_CSP = APP_CSP.replace("script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'");

/** The web build's worker entry scripts (vite names them after their source: tool.worker, job-worker, maplibre-gl-worker). */
const WORKER_SCRIPT = /^\/assets\/(.+\/)?[^/]*worker[^/]*\.m?js$/;

/**
 * The inline scripts of the /docs page as @elysiajs/openapi renders it: the element that carries
 * Scalar's configuration in a data attribute, whose text is only the whitespace between its tags.
 * Allowed by hash (not by 'unsafe-inline'); the docs e2e fails on a violation should it change.
 */
const DOCS_INLINE_SCRIPTS = ["\n    "];

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/**
 * /docs: Scalar's own bundle from /docs/scalar.js plus the hashed configuration element. Scalar
 * writes <style> elements and style attributes at run time (its Vue components and theme), so
 * styles need 'unsafe-inline' on this page only; scripts stay as strict as the app's.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  `script-src 'self' ${DOCS_INLINE_SCRIPTS.map(sha256).join(" ")}`,
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The API's answers are data: nothing in them may run, load or be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Powerful features the service never uses are off, for this page and anything it embeds. */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

/** A year; without includeSubDomains, since other hosts under the domain are not ours to pin. */
export const HSTS = "max-age=31536000";

/** API, OpenAPI and status paths answer data; /docs is the reference page; the rest is the web app. */
function policyFor(path: string): string {
  if (path === "/docs" || path === "/docs/") return DOCS_CSP;
  if (/^\/(api|openapi\.json|status|docs)(\/|$)/.test(path)) return API_CSP;
  if (WORKER_SCRIPT.test(path)) return WORKER_CSP;
  return APP_CSP;
}

/** The security headers for an answer to `path`; `https` when the original request was HTTPS. */
export function securityHeaders(path: string, https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": policyFor(path),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": PERMISSIONS_POLICY,
  };
  if (https) headers["strict-transport-security"] = HSTS;
  return headers;
}
