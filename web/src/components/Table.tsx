/**
 * A table with column headers. On narrow screens (styles.css) it becomes stacked rows, one
 * card per row, each cell labelled with its column's header: the labels are `data-label`
 * attributes set here from `headers` (so the screens that render rows need not know), kept in
 * step with rows that appear, change or re-render on their own by a MutationObserver. The
 * explicit ARIA roles keep it a table for screen readers once CSS displays it as blocks (some
 * browsers drop table semantics then).
 */
import { useLayoutEffect, useRef, type ReactNode } from "react";

export function Table({ headers, children }: { headers: string[]; children: ReactNode }) {
  const body = useRef<HTMLTableSectionElement>(null);
  const key = headers.join("\u0000");
  useLayoutEffect(() => {
    const tbody = body.current;
    if (!tbody) return;
    const columns = key.split("\u0000");
    labelCells(tbody, columns);
    const observer = new MutationObserver(() => labelCells(tbody, columns));
    observer.observe(tbody, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [key]);
  return (
    <div className="table-wrap">
      <table role="table">
        <thead role="rowgroup">
          <tr role="row">
            {headers.map((h, i) => (
              <th scope="col" role="columnheader" key={`${i}:${h}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" ref={body}>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * Gives every body cell its column's header as `data-label` (counting spanned columns) and
 * every row and cell its ARIA role.
 */
export function labelCells(tbody: HTMLTableSectionElement, headers: readonly string[]): void {
  for (const row of tbody.rows) {
    setIfChanged(row, "role", "row");
    let column = 0;
    for (const cell of row.cells) {
      setIfChanged(cell, "data-label", headers[column] ?? "");
      setIfChanged(cell, "role", cell.tagName === "TH" ? "rowheader" : "cell");
      column += Math.max(1, cell.colSpan);
    }
  }
}

/** Writes only a changed attribute, so relabelling leaves an unchanged table untouched. */
function setIfChanged(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
