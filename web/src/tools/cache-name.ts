/** The Cache Storage cache of tool files; the service worker (vite.config.ts) fills it too. */
export const TOOLS_CACHE = "vektor-tools";
