/**
 * The outline beside the canvas: every step as a list item with buttons for what the canvas does
 * by pointer (settings, connect to another step, disconnect, delete, show on canvas) and "Add
 * step" with a search. The keyboard, screen-reader and phone path to the whole editor; at 390 px
 * it is the main view.
 */
import { memo, useEffect, useId, useMemo, useRef, useState } from "react";
import type { EditorGraph } from "../../../workflows/model";
import { paletteGroups, searchPalette, type CatalogEntry } from "../../../workflows/model";
import { OptionList, type Option } from "./OptionList";

interface Props {
  graph: EditorGraph;
  catalog: CatalogEntry[];
  titleOf: (id: string) => string;
  summaryOf: (id: string) => string;
  problems: ReadonlyMap<string, string[]>;
  selected: ReadonlySet<string>;
  onAdd: (type: string) => void;
  onConnect: (source: string, target: string) => void;
  onDisconnect: (edgeId: string) => void;
  onDelete: (id: string) => void;
  onSettings: (id: string) => void;
  onShow: (id: string) => void;
}

/** The options of the palette as a flat list with group names, or the matches of a search. */
export function stepOptions(catalog: CatalogEntry[], query: string): Option[] {
  const describe = (e: CatalogEntry) => {
    const accepts = e.io.accepts === "any" ? "any file" : e.io.accepts.join(", ");
    return `${accepts} to ${e.io.produces === "inputs" ? "the same" : e.io.produces.join(", ")}`;
  };
  if (query.trim()) return searchPalette(catalog, query).map((e) => ({ id: e.type, label: e.title, hint: describe(e) }));
  return paletteGroups(catalog).flatMap((g) => g.entries.map((e) => ({ id: e.type, label: e.title, hint: describe(e), group: g.label })));
}

export function Outline(props: Props) {
  const { graph, titleOf, summaryOf, problems, selected } = props;
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  // Read by the items' handlers when they run, so an item re-renders only when what it shows changes.
  const latest = useRef(props);
  latest.current = props;
  // Steps are numbered; an item names the steps it is connected to by number, so its text holds
  // no other step's title (a search for a title finds that step's item only).
  const numberOf = useMemo(() => new Map(graph.nodes.map((n, i) => [n.id, i + 1])), [graph.nodes]);
  const edgesBy = useMemo(() => {
    const from = new Map<string, string[]>();
    const to = new Map<string, { id: string; target: string }[]>();
    for (const e of graph.edges) {
      from.set(e.target, [...(from.get(e.target) ?? []), e.source]);
      to.set(e.source, [...(to.get(e.source) ?? []), { id: e.id, target: e.target }]);
    }
    return { from, to };
  }, [graph.edges]);

  const actions = useMemo<ItemActions>(
    () => ({
      settings: (id) => latest.current.onSettings(id),
      show: (id) => latest.current.onShow(id),
      connect: (source, target) => latest.current.onConnect(source, target),
      disconnect: (edgeId) => latest.current.onDisconnect(edgeId),
      // After a delete, focus goes to the next step's first button (or Add step): never lost.
      remove: (id, index) => {
        latest.current.onDelete(id);
        requestAnimationFrame(() => {
          const items = listRef.current?.querySelectorAll<HTMLElement>(":scope > li");
          const next = items?.[Math.min(index, items.length - 1)]?.querySelector<HTMLElement>("button");
          (next ?? document.getElementById(`${headingId}-add`))?.focus();
        });
      },
      // Built when a Connect list opens, not on every render (it is every other step).
      targets: (id) => {
        const { graph: g, titleOf: title, summaryOf: summary } = latest.current;
        const others = g.nodes.filter((n) => n.id !== id);
        const counts = new Map<string, number>();
        for (const n of others) counts.set(title(n.id), (counts.get(title(n.id)) ?? 0) + 1);
        const number = new Map(g.nodes.map((n, i) => [n.id, i + 1]));
        return others.map((n) => ({
          id: n.id,
          label: counts.get(title(n.id))! > 1 ? `${title(n.id)} (${n.id})` : title(n.id),
          hint: [`step ${number.get(n.id)}`, summary(n.id)].filter(Boolean).join(", "),
        }));
      },
    }),
    [headingId],
  );

  return (
    <section className="outline" aria-labelledby={headingId}>
      <h2 id={headingId}>Steps</h2>
      {graph.nodes.length === 0 ? <p className="hint">No steps yet: add one.</p> : null}
      <ul className="steps" aria-labelledby={headingId} ref={listRef}>
        {graph.nodes.map((n, i) => {
          const out = edgesBy.to.get(n.id) ?? [];
          return (
            <StepItem
              key={n.id}
              id={n.id}
              index={i}
              title={titleOf(n.id)}
              summary={summaryOf(n.id)}
              fromText={numbered(edgesBy.from.get(n.id) ?? [], numberOf)}
              outKey={out.map((e) => `${e.id}\n${numberOf.get(e.target) ?? "?"}`).join("\n\n")}
              issues={(problems.get(n.id) ?? []).join(" ")}
              selected={selected.has(n.id)}
              actions={actions}
            />
          );
        })}
      </ul>
      <AddStep buttonId={`${headingId}-add`} catalog={props.catalog} onAdd={props.onAdd} />
    </section>
  );
}

/** `step 2`, `steps 2 and 5`, `steps 1, 2 and 5`; "" for none. */
function stepNumbers(n: string[]): string {
  if (n.length <= 1) return n.length ? `step ${n[0]}` : "";
  return `steps ${n.slice(0, -1).join(", ")} and ${n.at(-1)}`;
}

const numbered = (ids: string[], numberOf: ReadonlyMap<string, number>) => stepNumbers(ids.map((id) => String(numberOf.get(id) ?? "?")));

interface ItemActions {
  settings: (id: string) => void;
  show: (id: string) => void;
  connect: (source: string, target: string) => void;
  disconnect: (edgeId: string) => void;
  remove: (id: string, index: number) => void;
  targets: (id: string) => Option[];
}

interface ItemProps {
  id: string;
  index: number;
  title: string;
  summary: string;
  /** The steps leading into this one, by number ("steps 1 and 3"). */
  fromText: string;
  /** Its outgoing edges as "edge id \n target's number" pairs joined by a blank line (a string, so memo compares it). */
  outKey: string;
  issues: string;
  selected: boolean;
  actions: ItemActions;
}

/** One step of the outline; memoised on plain values, so selecting or moving a step re-renders only what changed. */
const StepItem = memo(function StepItem({ id, index, title, summary, fromText, outKey, issues, selected, actions }: ItemProps) {
  const [connecting, setConnecting] = useState(false);
  const connectButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const out = outKey ? outKey.split("\n\n").map((pair) => pair.split("\n") as [string, string]) : [];

  useEffect(() => {
    if (connecting) list.current?.focus();
  }, [connecting]);

  const close = () => {
    setConnecting(false);
    connectButton.current?.focus();
  };

  return (
    <li className={selected ? "step-item selected" : "step-item"}>
      <div className="step-item-head">
        <span className="step-number">{index + 1}.</span> <strong>{title}</strong> <span className="hint">({id})</span>
      </div>
      {summary ? <div className="hint">{summary}</div> : null}
      <div className="hint">
        {fromText ? `Gets files from ${fromText}. ` : ""}
        {out.length ? `Sends files to ${stepNumbers(out.map(([, n]) => n))}.` : ""}
      </div>
      {issues ? <p className="error step-item-problem">{issues}</p> : null}
      <div className="row-actions">
        <button type="button" className="secondary small" onClick={() => actions.settings(id)}>
          Settings
        </button>
        <button type="button" className="secondary small" ref={connectButton} aria-expanded={connecting} onClick={() => setConnecting((c) => !c)}>
          Connect
        </button>
        <button type="button" className="secondary small" onClick={() => actions.show(id)}>
          Show on canvas
        </button>
        <button type="button" className="secondary small" onClick={() => actions.remove(id, index)}>
          Delete step
        </button>
      </div>
      {out.length ? (
        <div className="row-actions">
          {out.map(([edgeId, t]) => (
            <button key={edgeId} type="button" className="link-button" onClick={() => actions.disconnect(edgeId)}>
              Stop sending to step {t}
            </button>
          ))}
        </div>
      ) : null}
      {connecting ? (
        <div className="popover">
          <p className="hint">Send the files of step {index + 1} to:</p>
          <OptionList
            ref={list}
            label="Connect to"
            options={actions.targets(id)}
            empty="There is no other step to connect to."
            onPick={(target) => {
              actions.connect(id, target);
              close();
            }}
            onCancel={close}
          />
        </div>
      ) : null}
    </li>
  );
});

function AddStep({ buttonId, catalog, onAdd }: { buttonId: string; catalog: CatalogEntry[]; onAdd: (type: string) => void }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const searchId = useId();
  const options = useMemo(() => stepOptions(catalog, query), [catalog, query]);

  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    setQuery("");
    button.current?.focus();
  };

  return (
    <div className="add-step">
      <button type="button" id={buttonId} ref={button} aria-expanded={open} onClick={() => (open ? close() : setOpen(true))}>
        Add step
      </button>
      {open ? (
        <div className="popover">
          <div className="field">
            <label htmlFor={searchId}>Search steps</label>
            <input
              id={searchId}
              ref={search}
              type="search"
              value={query}
              aria-describedby={`${searchId}-hint`}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "ArrowDown") (e.preventDefault(), list.current?.focus());
                else if (e.key === "Enter" && options[0]) (e.preventDefault(), onAdd(options[0].id), close());
                else if (e.key === "Escape") (e.preventDefault(), close());
              }}
            />
            <small id={`${searchId}-hint`} className="hint">
              By title or format (pdf, step, geojson…). Arrow down to the list, Enter adds.
            </small>
          </div>
          <OptionList
            ref={list}
            label="Step kinds"
            options={options}
            empty="No step matches."
            onPick={(type) => {
              onAdd(type);
              close();
            }}
            onCancel={close}
          />
        </div>
      ) : null}
    </div>
  );
}
