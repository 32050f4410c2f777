/**
 * The jobs this process is running, each with the controller that stops it. Built once in the
 * composition root: the runner holds and releases its jobs here, and the services that cancel
 * (tool runs, workflow runs) stop the ones running in this process at once, instead of at the
 * next lease renewal (other processes' jobs stop then).
 */
/** The abort reason of a job handed back because its process stops (not a user's cancel). */
export const HANDED_BACK = "handed-back";

/** Whether `signal` stopped a job to hand it back to the queue (graceful shutdown). */
export function handedBack(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === HANDED_BACK;
}

export class HeldJobs {
  private readonly held = new Map<string, AbortController>();

  hold(id: string, controller: AbortController): void {
    this.held.set(id, controller);
  }

  release(id: string): void {
    this.held.delete(id);
  }

  get size(): number {
    return this.held.size;
  }

  ids(): string[] {
    return [...this.held.keys()];
  }

  /** Stops every job this process runs, to be queued again for another process (shutdown). */
  handBackAll(): void {
    for (const controller of this.held.values()) controller.abort(HANDED_BACK);
  }

  /** Stops those of `ids` this process runs; the others are not here. */
  stop(ids: string[]): void {
    for (const id of ids) this.held.get(id)?.abort();
  }
}
