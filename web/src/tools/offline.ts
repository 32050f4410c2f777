/**
 * Tool families kept for offline use. The service worker caches tool files as the worker asks
 * for them; after a family's first run on this device, the rest of that family's files (its
 * other tools, per the build's tool-families.json) are added to the same cache, so every tool of
 * a family used once runs offline. Files of older builds are dropped from that cache, since
 * their names (content hashes) are not asked for any more.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { TOOLS_CACHE } from "./cache-name";

/** web/vite/tool-families.ts writes it. */
interface FamilyFiles {
  families: Record<string, string[]>;
  /** Every file of this build's tool worker. */
  all: string[];
}

const NONE: FamilyFiles = { families: {}, all: [] };

const FAMILIES_KEY = ["offline-families"] as const;
let familyFiles: Promise<FamilyFiles> | null = null;

/** The build's family -> files map (precached with the shell). */
function loadFamilyFiles(): Promise<FamilyFiles> {
  return (familyFiles ??= fetch("/tool-families.json").then(
    (res) => (res.ok ? (res.json() as Promise<FamilyFiles>) : NONE),
    () => NONE,
  ));
}

const cacheAvailable = () => typeof caches !== "undefined" && Boolean(navigator.serviceWorker?.controller);

/** Adds the family's files that are not cached yet. */
async function keepFamily(family: string): Promise<void> {
  if (!cacheAvailable()) return;
  const files = (await loadFamilyFiles()).families[family] ?? [];
  const cache = await caches.open(TOOLS_CACHE);
  for (const url of files) if (!(await cache.match(url))) await cache.add(url);
}

/** Families whose every file is cached; drops cached files this build does not have. */
async function offlineFamilies(): Promise<string[]> {
  if (!cacheAvailable() || !(await caches.has(TOOLS_CACHE))) return [];
  const { families, all } = await loadFamilyFiles();
  const cache = await caches.open(TOOLS_CACHE);
  const current = new Set(all);
  const cached = new Set<string>();
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    // A file of an older build: never asked for again.
    if (current.size > 0 && !current.has(path)) await cache.delete(request);
    else cached.add(path);
  }
  return Object.entries(families)
    .filter(([, files]) => files.every((f) => cached.has(f)))
    .map(([family]) => family);
}

/** The families available offline, and every family the build has. */
export function useOfflineFamilies() {
  return useQuery({
    queryKey: FAMILIES_KEY,
    queryFn: async () => ({ all: Object.keys((await loadFamilyFiles()).families), offline: await offlineFamilies() }),
    staleTime: Infinity,
  });
}

/** After a run on this device: keep the rest of its family, then refresh the indicator. */
export function useKeepFamily(): (family: string) => void {
  const queries = useQueryClient();
  return (family) =>
    void keepFamily(family)
      .catch(() => {})
      .then(() => queries.invalidateQueries({ queryKey: FAMILIES_KEY }));
}
