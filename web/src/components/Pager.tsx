/**
 * Cursor paging for a list screen: the cursors walked so far (the last one is the page shown) and
 * the Previous page / Next page buttons that move along them.
 */
import { useState } from "react";

export function useCursors() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    /** The cursor of the page shown (undefined: the first page). */
    current: cursors.at(-1),
    back: cursors.length > 0 ? () => setCursors((c) => c.slice(0, -1)) : null,
    forward: (next: string) => setCursors((c) => [...c, next]),
  };
}

export function PageButtons({ cursors, nextCursor }: { cursors: ReturnType<typeof useCursors>; nextCursor: string | null | undefined }) {
  return (
    <div className="actions">
      <button type="button" className="secondary" disabled={!cursors.back} onClick={() => cursors.back?.()}>
        Previous page
      </button>
      <button type="button" className="secondary" disabled={!nextCursor} onClick={() => nextCursor && cursors.forward(nextCursor)}>
        Next page
      </button>
    </div>
  );
}
