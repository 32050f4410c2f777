/** Structured JSON logs (pino). Request-scoped lines carry `requestId`. */
import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: "vektor" }, timestamp: pino.stdTimeFunctions.isoTime });
}
