/**
 * `npm start`: the service on the environment's settings (ROLE=all by default; ROLE=api serves
 * HTTP only; ROLE=worker runs the job queue only), stopped gracefully on SIGTERM/SIGINT.
 */
import { startServer, startWorkerProcess } from "./boot";
import { readEnv } from "./env";

const env = readEnv();
const running = env.role === "worker" ? await startWorkerProcess(env) : await startServer(env);
if ("url" in running) console.log(`Vektor is running at ${running.url} (API reference: ${running.url}/docs)`);
else console.log(`Vektor worker is running (${env.toolWorkers} tool workers)`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    running.services.log.info({ signal, graceMs: env.shutdownGraceMs }, "shutting down: running jobs finish within the grace period or go back to the queue");
    await running.stop().then(
      () => process.exit(0),
      (err) => {
        running.services.log.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
