/** What every viewer shows around its content: loading, the error, a usage hint. */
import type { ReactNode } from "react";

export function ViewerFrame({ loading, error, hint, children }: { loading: boolean; error?: string; hint?: string; children: ReactNode }) {
  if (error) return <p className="error">Cannot preview it: {error}</p>;
  if (loading) return <p className="hint">Preparing the preview…</p>;
  return (
    <div className="viewer">
      {children}
      {hint ? <small className="hint">{hint}</small> : null}
    </div>
  );
}
