/**
 * Writes the node catalog (what GET /api/workflows/catalog lists, without the trigger docs) to
 * web/src/workflows/model/testing/catalog.json, so the web editor's unit tests run on the real
 * catalog without importing server code. `bun scripts/catalog-fixture.ts` after a tool or node
 * kind changes; server/src/workflows/nodes/catalog-fixture.test.ts fails while it is stale.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { catalog } from "../server/src/workflows/nodes/index";

export const CATALOG_FIXTURE = join(import.meta.dir, "..", "web", "src", "workflows", "model", "testing", "catalog.json");

/** The fixture's text: the catalog as JSON (symbols of TypeBox schemas dropped, as on the wire). */
export const catalogFixtureText = (): string => `${JSON.stringify(catalog(), null, 1)}\n`;

if (import.meta.main) {
  writeFileSync(CATALOG_FIXTURE, catalogFixtureText());
  console.log(`wrote ${CATALOG_FIXTURE}`);
}
