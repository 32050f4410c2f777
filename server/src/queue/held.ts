/**
 * The jobs this process is running, each with the controller that stops it. Built once in the
 * composition root: the runner holds and releases its jobs here, and the services that cancel
 * (tool runs, workflow runs) stop the ones running in this process at once, instead of at the
 * next lease renewal (other processes' jobs stop then).
 */
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

  /** Stops those of `ids` this process runs; the others are not here. */
  stop(ids: string[]): void {
    for (const id of ids) this.held.get(id)?.abort();
  }
}
