/**
 * The outline beside the canvas: every step as a list item with buttons for what the canvas does
 * by pointer (settings, connect to another step, disconnect, delete, show on canvas) and "Add
 * step" with a search. The keyboard, screen-reader and phone path to the whole editor; at 390 px
 * it is the main view.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
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
  const { graph, titleOf } = props;
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const incoming = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const e of graph.edges) m.set(e.target, [...(m.get(e.target) ?? []), e.source]);
    return m;
  }, [graph.edges]);

  /** After a delete, focus goes to the next step's Settings (or Add step): never lost on the page. */
  const deleteStep = (id: string, index: number) => {
    props.onDelete(id);
    requestAnimationFrame(() => {
      const items = listRef.current?.querySelectorAll<HTMLElement>(":scope > li");
      const next = items?.[Math.min(index, items.length - 1)]?.querySelector<HTMLElement>("button");
      (next ?? document.getElementById(`${headingId}-add`))?.focus();
    });
  };

  return (
    <section className="outline" aria-labelledby={headingId}>
      <h2 id={headingId}>Steps</h2>
      {graph.nodes.length === 0 ? <p className="hint">No steps yet: add one.</p> : null}
      <ul className="steps" aria-labelledby={headingId} ref={listRef}>
        {graph.nodes.map((n, i) => (
          <StepItem key={n.id} id={n.id} index={i} {...props} from={incoming.get(n.id) ?? []} onDeleteStep={deleteStep} titleOf={titleOf} />
        ))}
      </ul>
      <AddStep buttonId={`${headingId}-add`} catalog={props.catalog} onAdd={props.onAdd} />
    </section>
  );
}

function StepItem(props: Props & { id: string; index: number; from: string[]; onDeleteStep: (id: string, index: number) => void }) {
  const { id, graph, titleOf, problems, selected } = props;
  const [connecting, setConnecting] = useState(false);
  const connectButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const title = titleOf(id);
  const summary = props.summaryOf(id);
  const out = graph.edges.filter((e) => e.source === id);
  const issues = problems.get(id) ?? [];

  useEffect(() => {
    if (connecting) list.current?.focus();
  }, [connecting]);

  const others = graph.nodes.filter((n) => n.id !== id);
  const counts = new Map<string, number>();
  for (const n of others) counts.set(titleOf(n.id), (counts.get(titleOf(n.id)) ?? 0) + 1);
  const options: Option[] = others.map((n) => ({ id: n.id, label: counts.get(titleOf(n.id))! > 1 ? `${titleOf(n.id)} (${n.id})` : titleOf(n.id), hint: props.summaryOf(n.id) || undefined }));

  const close = () => {
    setConnecting(false);
    connectButton.current?.focus();
  };

  return (
    <li className={selected.has(id) ? "step-item selected" : "step-item"}>
      <div className="step-item-head">
        <strong>{title}</strong> <span className="hint">({id})</span>
      </div>
      {summary ? <div className="hint">{summary}</div> : null}
      <div className="hint">
        {props.from.length ? `From ${props.from.map(titleOf).join(", ")}. ` : ""}
        {out.length ? `To ${out.map((e) => titleOf(e.target)).join(", ")}.` : ""}
      </div>
      {issues.length ? <p className="error step-item-problem">{issues.join(" ")}</p> : null}
      <div className="row-actions">
        <button type="button" className="secondary small" onClick={() => props.onSettings(id)}>
          Settings
        </button>
        <button type="button" className="secondary small" ref={connectButton} aria-expanded={connecting} onClick={() => setConnecting((c) => !c)}>
          Connect
        </button>
        <button type="button" className="secondary small" onClick={() => props.onShow(id)}>
          Show on canvas
        </button>
        <button type="button" className="secondary small" onClick={() => props.onDeleteStep(id, props.index)}>
          Delete step
        </button>
      </div>
      {out.length ? (
        <div className="row-actions">
          {out.map((e) => (
            <button key={e.id} type="button" className="link-button" onClick={() => props.onDisconnect(e.id)}>
              Disconnect from {titleOf(e.target)}
            </button>
          ))}
        </div>
      ) : null}
      {connecting ? (
        <div className="popover">
          <p className="hint">Send the files of {title} to:</p>
          <OptionList
            ref={list}
            label="Connect to"
            options={options}
            empty="There is no other step to connect to."
            onPick={(target) => {
              props.onConnect(id, target);
              close();
            }}
            onCancel={close}
          />
        </div>
      ) : null}
    </li>
  );
}

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
