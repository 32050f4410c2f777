/**
 * Files kept on the server: upload several at once with progress; a paged list searched by name,
 * each output saying what made it; choose files to run a tool on or to delete together; preview,
 * download, delete.
 */
import { useQueryClient } from "@tanstack/react-query";
import type { FileRecord } from "@vektor/shared/schemas/file";
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../api/client";
import { FILES_KEY, mimeFor, uploadFile, useDeleteFiles, useFilesPage } from "../api/files";
import { formatBytes } from "../components/format";
import { ErrorText, Screen } from "../components/Guard";
import { PageButtons, useCursors } from "../components/Pager";
import { useDebounced } from "../components/use-debounced";
import { ChosenBar } from "./files/ChosenBar";
import { pageChoice, toggled } from "./files/file-words";
import { FileTable } from "./files/FileTable";
import "./files/files.css";

export function FilesScreen() {
  return (
    <Screen title="Files">
      <Uploader />
      <FileList />
    </Screen>
  );
}

interface Upload {
  name: string;
  sent: number;
  total: number;
  error?: string;
  done?: boolean;
}

function Uploader() {
  const queries = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const update = (i: number, patch: Partial<Upload>) => setUploads((list) => list.map((u, j) => (j === i ? { ...u, ...patch } : u)));

  async function start(files: File[]) {
    setUploads(files.map((f) => ({ name: f.name, sent: 0, total: f.size })));
    await Promise.all(
      files.map(async (file, i) => {
        try {
          await uploadFile(file, mimeFor(file), (sent, total) => update(i, { sent, total }));
          update(i, { sent: file.size, done: true });
        } catch (err) {
          update(i, { error: errorMessage(err) });
        }
      }),
    );
    void queries.invalidateQueries({ queryKey: FILES_KEY });
  }

  return (
    <section className="card" aria-labelledby="upload-title" onDragOver={(e) => e.preventDefault()} onDrop={(e) => (e.preventDefault(), void start([...e.dataTransfer.files]))}>
      <h2 id="upload-title">Upload</h2>
      <div className="field">
        <label htmlFor="upload">Upload files</label>
        <input id="upload" type="file" multiple onChange={(e) => void start([...(e.target.files ?? [])])} />
        <small className="hint">Choose or drop several files; large ones are sent in parts.</small>
      </div>
      <ul className="uploads">
        {uploads.map((u, i) => (
          <li key={i}>
            <label htmlFor={`upload-${i}`}>{u.name}</label> <progress id={`upload-${i}`} max={u.total || 1} value={u.sent} />{" "}
            <span className={u.error ? "error" : "hint"}>{u.error ?? (u.done ? "Uploaded" : `${formatBytes(u.sent)} of ${formatBytes(u.total)}`)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Search (by the server, paged), choose rows across pages, act on the chosen, preview in place. */
function FileList() {
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), 250);
  const [chosen, setChosen] = useState<Map<string, FileRecord>>(new Map());
  const remove = useDeleteFiles();
  const [notDeleted, setNotDeleted] = useState("");
  /** Deletes them and unchooses those gone; answers the names of those that are not. */
  const deleteFiles = async (files: FileRecord[]) => {
    const failed = new Set(await remove.mutateAsync(files));
    setChosen((c) => toggled(c, files.filter((f) => !failed.has(f.fileId)), false));
    return files.filter((f) => failed.has(f.fileId)).map((f) => f.filename);
  };
  const deleteOne = async (file: FileRecord) => {
    const failed = await deleteFiles([file]);
    setNotDeleted(failed.length ? `${file.filename} could not be deleted. Try again.` : "");
  };
  return (
    <section className="card" aria-labelledby="list-title">
      <h2 id="list-title">Your files</h2>
      <div className="field files-search">
        <label htmlFor="files-search">Search by name</label>
        <input id="files-search" type="search" value={text} placeholder="e.g. plan" onChange={(e) => setText(e.target.value)} />
      </div>
      <ChosenBar chosen={chosen} onClear={() => setChosen(new Map())} onDelete={deleteFiles} />
      <ErrorText error={remove.error} message={notDeleted} />
      <FilePage q={q} chosen={chosen} setChosen={setChosen} onDelete={(f) => void deleteOne(f)} deleting={remove.isPending} />
    </section>
  );
}

interface FilePageProps {
  q: string;
  chosen: Map<string, FileRecord>;
  setChosen: (update: (c: Map<string, FileRecord>) => Map<string, FileRecord>) => void;
  onDelete: (file: FileRecord) => void;
  deleting: boolean;
}

function FilePage({ q, chosen, setChosen, onDelete, deleting }: FilePageProps) {
  // A new search starts at its first page; the rows shown stay until its answer arrives.
  const cursors = useCursors(q);
  const page = useFilesPage(cursors.current, q);
  const [shown, setShown] = useState<string | null>(null);
  const items = page.data?.items ?? [];
  return (
    <>
      <ErrorText error={page.error} />
      {page.isPending ? <p>Loading…</p> : items.length === 0 ? <p>{q ? `No file's name contains "${q}".` : "No files yet."}</p> : null}
      {items.length ? (
        <>
          <ChooseAll items={items} chosen={chosen} onChoose={(on) => setChosen((c) => toggled(c, items, on))} />
          <FileTable
            items={items}
            chosen={chosen}
            onChoose={(f, on) => setChosen((c) => toggled(c, [f], on))}
            shown={shown}
            onShow={setShown}
            onDelete={onDelete}
            deleting={deleting}
          />
        </>
      ) : null}
      <PageButtons cursors={cursors} nextCursor={page.data?.nextCursor} />
    </>
  );
}

/** The page's rows chosen at once; shown as mixed when some are. */
function ChooseAll({ items, chosen, onChoose }: { items: FileRecord[]; chosen: Map<string, FileRecord>; onChoose: (on: boolean) => void }) {
  const box = useRef<HTMLInputElement>(null);
  const state = pageChoice(chosen, items.map((f) => f.fileId));
  useEffect(() => {
    if (box.current) box.current.indeterminate = state === "some";
  }, [state]);
  return (
    <label className="choice choose-all">
      <input ref={box} type="checkbox" checked={state === "all"} onChange={(e) => onChoose(e.target.checked)} /> Choose all on this page
    </label>
  );
}
