/** Structured JSON logs (pino). Request-scoped lines carry `requestId`. */
import pino from "pino";

export type Logger = pino.Logger;

/** Lines go to stdout, or to `destination` (a test that reads what was logged). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: "vektor" }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
