/** Ctrl-C during a long step aborts it cleanly (an upload keeps its state to resume) instead of killing mid-write. */
export async function withInterrupt<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  const onSigint = () => ctl.abort();
  process.once("SIGINT", onSigint);
  try {
    return await fn(ctl.signal);
  } finally {
    process.off("SIGINT", onSigint);
  }
}
