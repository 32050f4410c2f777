/** `npm start`: the service on the environment's settings, stopped gracefully on SIGTERM/SIGINT. */
import { startServer } from "./boot";
import { readEnv } from "./env";

const running = await startServer(readEnv());
console.log(`Vektor is running at ${running.url} (API reference: ${running.url}/docs)`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    running.services.log.info({ signal }, "shutting down");
    await running.stop();
    process.exit(0);
  });
}
