/** A throwaway database on a test PostgreSQL server (TEST_DATABASE_URL), for the tests that run on both engines. */
import postgres from "postgres";

/** Creates a database with a random name on the server at `base`; `drop` removes it, connections and all. */
export async function freshDatabase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const a = postgres(base, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
