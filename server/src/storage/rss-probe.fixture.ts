/**
 * Run by local.test.ts in a fresh process so that other tests cannot disturb the measurement:
 * streams 200 MB into a LocalStore, hashes and reads it back, prints the RSS growth as JSON.
 */
import { generatedStream } from "./contract.testkit";
import { LocalStore } from "./local";

const store = new LocalStore(process.argv[2]);
const total = 200 * 1024 * 1024;
Bun.gc(true);
const before = process.memoryUsage().rss;
const body = generatedStream(total);
const res = await store.put("u/9/big", body.stream);
const afterPut = process.memoryUsage().rss;
const sha = await store.sha256("u/9/big");
let read = 0;
for await (const chunk of await store.get("u/9/big")) read += chunk.byteLength;
const after = process.memoryUsage().rss;
console.log(JSON.stringify({ size: res.size, read, sameHash: sha === res.sha256 && sha === body.sha256(), growthMB: (Math.max(afterPut, after) - before) / 1e6 }));
