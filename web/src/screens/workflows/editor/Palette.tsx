/**
 * The palette: the catalog's node kinds by category (triggers, sources, operations by family,
 * logic, outputs), searchable by title and format. Drag one onto the canvas, or press it to add
 * it in the middle of the view.
 */
import { useId, useMemo, useState } from "react";
import { paletteGroups, searchPalette, type CatalogEntry } from "../../../workflows/model";
import { PALETTE_MIME } from "./Canvas";

export function Palette({ catalog, onAdd }: { catalog: CatalogEntry[]; onAdd: (type: string) => void }) {
  const [query, setQuery] = useState("");
  const id = useId();
  const groups = useMemo(() => (query.trim() ? [{ label: "Matches", entries: searchPalette(catalog, query) }] : paletteGroups(catalog)), [catalog, query]);
  return (
    <section className="palette" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Palette</h2>
      <p className="hint">Drag a step onto the canvas, or press it to add it there.</p>
      <div className="field">
        <label htmlFor={`${id}-search`}>Search the palette</label>
        <input id={`${id}-search`} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {groups.every((g) => g.entries.length === 0) ? <p>No step matches.</p> : null}
      {groups
        .filter((g) => g.entries.length)
        .map((g) => (
          <div key={g.label} className="palette-group">
            <h3 id={`${id}-${g.label}`}>{g.label}</h3>
            <ul aria-labelledby={`${id}-${g.label}`}>
              {g.entries.map((e) => (
                <li key={e.type}>
                  <button
                    type="button"
                    className={`palette-item step-${e.category}`}
                    draggable
                    title={e.description}
                    onDragStart={(ev) => {
                      ev.dataTransfer.setData(PALETTE_MIME, e.type);
                      ev.dataTransfer.effectAllowed = "copy";
                    }}
                    onClick={() => onAdd(e.type)}
                  >
                    {e.title}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}
