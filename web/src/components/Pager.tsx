/**
 * Cursor paging for a list screen: the cursors walked so far (the last one is the page shown) and
 * the Previous page / Next page buttons that move along them.
 */
import { useState } from "react";

/** `scope` names the list's filters (a search, say): when it changes, paging starts again at the first page. */
export function useCursors(scope = "") {
  const [walked, setWalked] = useState({ scope, cursors: [] as string[] });
  const cursors = walked.scope === scope ? walked.cursors : [];
  return {
    /** The cursor of the page shown (undefined: the first page). */
    current: cursors.at(-1),
    back: cursors.length > 0 ? () => setWalked({ scope, cursors: cursors.slice(0, -1) }) : null,
    forward: (next: string) => setWalked({ scope, cursors: [...cursors, next] }),
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
