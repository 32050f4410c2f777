/**
 * The files of a new batch, chosen from all of the caller's files: searched by name (the server
 * searches), a page at a time, each ticked on its own or every file the search matches at once.
 * What is chosen stays chosen across searches and pages.
 */
import { useState } from "react";
import { allPickableFiles, usePickableFiles } from "../../api/batches";
import { formatBytes, formatDate } from "../../components/format";
import { ErrorText } from "../../components/Guard";
import { PageButtons, useCursors } from "../../components/Pager";
import { useDebounced } from "../../components/use-debounced";
import { addAll, pickedText, removeAll, toggle, type Picked, type PickedFile } from "./picked";

/** The most files one batch takes (the API's limit on fileIds). */
const MOST = 10_000;
const SEARCH_PAUSE_MS = 300;

interface Props {
  picked: Picked;
  onChange: (picked: Picked) => void;
}

export function FilePicker({ picked, onChange }: Props) {
  const [typed, setTyped] = useState("");
  const q = useDebounced(typed.trim(), SEARCH_PAUSE_MS);
  return (
    <fieldset className="file-picker">
      <legend>Files for the batch</legend>
      <div className="field">
        <label htmlFor="pick-search">Search your files by name</label>
        <input id="pick-search" type="search" value={typed} maxLength={200} placeholder="e.g. plan" onChange={(e) => setTyped(e.target.value)} />
      </div>
      {/* A new search starts again at its first page. */}
      <Matches key={q} q={q} picked={picked} onChange={onChange} />
    </fieldset>
  );
}

function Matches({ q, picked, onChange }: { q: string } & Props) {
  const cursors = useCursors();
  const page = usePickableFiles(q, cursors.current);
  const [gathering, setGathering] = useState<unknown>(null);
  const items = page.data?.items ?? [];
  const shown: PickedFile[] = items.map((f) => ({ fileId: f.fileId, name: f.filename, type: f.mime, size: f.size }));
  const everything = q ? `every file matching “${q}”` : "every file";

  const selectAll = async () => {
    setGathering(true);
    try {
      const all = await allPickableFiles(q, MOST);
      onChange(addAll(picked, all.map((f) => ({ fileId: f.fileId, name: f.filename, type: f.mime, size: f.size }))));
      setGathering(null);
    } catch (err) {
      setGathering(err);
    }
  };

  return (
    <>
      <div className="actions">
        <button type="button" className="secondary" disabled={gathering === true || items.length === 0} onClick={() => void selectAll()}>
          {`Select ${everything}`}
        </button>
        <button type="button" className="secondary" disabled={shown.length === 0} onClick={() => onChange(removeAll(picked, shown))}>
          Unselect this page
        </button>
        <button type="button" className="secondary" disabled={picked.size === 0} onClick={() => onChange(new Map())}>
          Clear the selection
        </button>
      </div>
      <p className="picked-count" aria-live="polite">
        {gathering === true ? "Gathering the matching files…" : pickedText(picked, shown, q !== "")}
      </p>
      <ErrorText error={page.error ?? (gathering !== true ? gathering : null)} />
      {page.data && items.length === 0 ? <p className="hint">{q ? `No uploaded file has “${q}” in its name.` : "Upload files on the Files screen first."}</p> : null}
      <ul className="pick-list" aria-label="Your files">
        {items.map((f) => (
          <li key={f.fileId}>
            <input
              id={`pick-${f.fileId}`}
              type="checkbox"
              checked={picked.has(f.fileId)}
              aria-describedby={`pick-${f.fileId}-meta`}
              onChange={(e) => onChange(toggle(picked, { fileId: f.fileId, name: f.filename, type: f.mime, size: f.size }, e.target.checked))}
            />
            <label htmlFor={`pick-${f.fileId}`} className="pick-name">
              {f.filename}
            </label>
            <span id={`pick-${f.fileId}-meta`} className="pick-meta">
              {formatBytes(f.size)} · {formatDate(f.createdAt)}
            </span>
          </li>
        ))}
      </ul>
      {cursors.back || page.data?.nextCursor ? <PageButtons cursors={cursors} nextCursor={page.data?.nextCursor} /> : null}
    </>
  );
}
