/**
 * Tests only: one embedded database made (initdb and migrations) per test process and copied
 * wherever a test needs a fresh one. An initdb takes 8 s on a quiet machine and half a minute on
 * a busy one; every test file that opened a database of its own paid it (a copy takes well under
 * a second). The tests of initdb itself (client.test.ts) open theirs without it.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "./client";

const templates = new Map<string, Promise<string>>();

/** The migrated template's database folder for `sharedBuffers` (made on first use, removed when the process exits). */
function pgliteTemplate(sharedBuffers: string): Promise<string> {
  let made = templates.get(sharedBuffers);
  if (!made) {
    made = (async () => {
      const root = mkdtempSync(join(tmpdir(), "vektor-template-"));
      process.once("exit", () => rmSync(root, { recursive: true, force: true }));
      const database = await openDatabase({ databaseUrl: null, dataDir: root, pgliteSharedBuffers: sharedBuffers });
      await database.close();
      return join(root, "db");
    })();
    templates.set(sharedBuffers, made);
  }
  return made;
}

/** A fresh migrated PGlite database in `dataDir` (its `db` folder, where openDatabase looks), unless one is there. */
export async function copyPgliteTemplate(dataDir: string, sharedBuffers: string): Promise<void> {
  const dir = join(dataDir, "db");
  if (existsSync(join(dir, "PG_VERSION"))) return;
  // A test may name a DATA_DIR that does not exist yet (one on a small file system, say).
  mkdirSync(dataDir, { recursive: true });
  cpSync(await pgliteTemplate(sharedBuffers), dir, { recursive: true });
}
