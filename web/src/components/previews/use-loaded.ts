/**
 * The result of async work a viewer does once when it opens (read bytes, run a tool in the
 * worker); aborted when the viewer closes, so a closed preview stops its tool run.
 */
import { useEffect, useState } from "react";
import { errorMessage } from "../../api/client";

export interface Loaded<T> {
  value?: T;
  error?: string;
}

export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({});
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal).then(
      (value) => abort.signal.aborted || setState({ value }),
      (err: unknown) => abort.signal.aborted || setState({ error: errorMessage(err) }),
    );
    return () => abort.abort();
    // Loaded once per mount: a preview of another file is another mount (keyed by its caller).
  }, []);
  return state;
}
