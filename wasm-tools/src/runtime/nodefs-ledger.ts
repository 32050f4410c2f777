/**
 * Emscripten's NODEFS counted in the thread's file ledger (file-ledger.ts): every operation, on
 * a path or an open file, is a host call, and each file it opens is recorded as held until it is
 * closed. NODEFS keeps a file's descriptor (`stream.nfd`) from the engine's open to its close, so
 * a worker ended mid-run held its inputs and outputs open for good. Once the host stops the
 * worker, every operation is refused (EIO): it creates, changes and removes nothing more either,
 * while its job's folder is being removed.
 */
import { asHostCall, forgetHeld, recordHeld, threadLedgers } from "./file-ledger";

/** The slice of an Emscripten NODEFS this uses. */
export interface LedgeredNodeFs {
  stream_ops: Record<string, unknown>;
  node_ops: Record<string, unknown>;
}

interface NodeStream {
  nfd?: number;
}

/** Emscripten's errno numbers (WASI's) used here. */
const EIO = 29;
const EMFILE = 33;

const done = new WeakSet<object>();

type Op = (...args: unknown[]) => unknown;

/** Makes `nodefs`'s operations host calls of the thread's ledger (once per engine; call it after any other patch). */
export function ledgerNodeFs(nodefs: LedgeredNodeFs, ErrnoError: new (errno: number) => Error): void {
  if (done.has(nodefs)) return;
  done.add(nodefs);
  const refuse = (): never => {
    throw new ErrnoError(EIO);
  };
  const ops = nodefs.stream_ops as Record<string, Op>;
  const { open, close } = ops;
  const wrapped: Record<string, Op> = {
    // The descriptor the open got is recorded; when the ledger is full it is closed again: EMFILE.
    open: (stream) => {
      const result = open(stream);
      const { nfd } = stream as NodeStream;
      const [ledger] = threadLedgers();
      if (ledger && nfd !== undefined && !recordHeld(ledger, nfd)) {
        close(stream);
        throw new ErrnoError(EMFILE);
      }
      return result;
    },
    // Forgotten whether or not the close succeeded: NODEFS has given it up either way.
    close: (stream) => {
      const { nfd } = stream as NodeStream;
      try {
        return close(stream);
      } finally {
        const [ledger] = threadLedgers();
        if (ledger && nfd !== undefined) forgetHeld(ledger, nfd);
      }
    },
  };
  for (const table of [ops, nodefs.node_ops as Record<string, Op>]) {
    for (const [name, op] of Object.entries(table)) {
      if (typeof op !== "function") continue;
      const call = (table === ops && wrapped[name]) || op;
      table[name] = (...args: unknown[]) => asHostCall(threadLedgers(), () => call(...args), refuse);
    }
  }
}
