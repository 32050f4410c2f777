/**
 * The URLs Vite emitted for each WASM binary a registered family needs, keyed by
 * `WasmModuleRef.name`. The `vektor:wasm-refs` build plugin (web/vite/wasm-refs.ts) appends to
 * each family's init.ts a line that records its binaries here, so a family's entries exist as
 * soon as its init module is evaluated, before it asks the locator. The table lives on
 * `globalThis` under a registered symbol, so every copy of this module sees the same one.
 */
const KEY = Symbol.for("vektor.wasm-urls");

function table(): Map<string, string> {
  const scope = globalThis as { [KEY]?: Map<string, string> };
  return (scope[KEY] ??= new Map());
}

/** The emitted URL for `name`, absolute, or undefined when the build did not bundle it. */
export function wasmUrl(name: string): string | undefined {
  const url = table().get(name);
  return url === undefined ? undefined : new URL(url, self.location.href).href;
}

/** Every binary known so far (for diagnostics). */
export function knownWasm(): string[] {
  return [...table().keys()];
}
