/**
 * The URLs Vite emitted for each WASM binary a registered family needs, keyed by
 * `WasmModuleRef.name`. Filled at module evaluation by lines the `vektor:wasm-refs` build plugin
 * appends to each family's init.ts (see web/vite/wasm-refs.ts), so a family's entries exist as
 * soon as its init module is loaded, before it asks the locator.
 */
const urls = new Map<string, string>();

/** Called by the generated lines: `name` is served at `url` (relative to the worker's base). */
export function provideWasmUrl(name: string, url: string): void {
  urls.set(name, url);
}

/** The emitted URL for `name`, absolute, or undefined when the build did not bundle it. */
export function wasmUrl(name: string): string | undefined {
  const url = urls.get(name);
  return url === undefined ? undefined : new URL(url, self.location.href).href;
}

/** Every binary known so far (for diagnostics). */
export function knownWasm(): string[] {
  return [...urls.keys()];
}
