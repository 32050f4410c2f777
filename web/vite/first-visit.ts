/**
 * What the service worker precaches: the files the first visit needs and the app needs
 * offline, not the whole build. That is the entry chunk with everything it imports statically
 * (and their CSS), plus the same for the screens anyone may open (`offlineScreens`: Convert, which
 * runs tools on this device offline, and sign-in). The screens behind sign-in need the server to
 * show anything, so their chunks are cached the first time they are opened (vite.config.ts,
 * runtime caching) instead of travelling on the first visit.
 */
import type { ManifestTransform } from "workbox-build";
import type { Plugin } from "vite";

/** A chunk as the bundle hands it over, with Vite's record of the CSS it imports. */
interface Chunk {
  type: "chunk";
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

export function firstVisit(offlineScreens: RegExp, keepOutside: (url: string) => boolean): { plugin: Plugin; manifestTransform: ManifestTransform } {
  const needed = new Set<string>();
  const plugin: Plugin = {
    name: "vektor:first-visit",
    apply: "build",
    generateBundle(_options, bundle) {
      needed.clear();
      const chunks = new Map<string, Chunk>();
      for (const item of Object.values(bundle)) if (item.type === "chunk") chunks.set(item.fileName, item as unknown as Chunk);
      const add = (fileName: string) => {
        if (needed.has(fileName)) return;
        needed.add(fileName);
        const chunk = chunks.get(fileName);
        for (const css of chunk?.viteMetadata?.importedCss ?? []) needed.add(css);
        for (const dep of chunk?.imports ?? []) add(dep);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry || (chunk.facadeModuleId && offlineScreens.test(chunk.facadeModuleId))) add(chunk.fileName);
    },
  };
  const manifestTransform: ManifestTransform = async (entries) => {
    // vite-plugin-pwa also runs for the tool worker's build, before the app's bundle exists, on an
    // empty list; the app's own list must never be filtered without the bundle seen.
    if (entries.length > 0 && needed.size === 0) throw new Error("vektor:first-visit: the bundle was not seen before the service worker was generated");
    return { manifest: entries.filter((e) => (e.url.startsWith("assets/") ? needed.has(e.url) : keepOutside(e.url))), warnings: [] };
  };
  return { plugin, manifestTransform };
}
