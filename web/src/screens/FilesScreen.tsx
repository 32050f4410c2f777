/** Files kept on the server: upload several at once with progress, a paged list, preview, download, delete. */
import { PageButtons, useCursors } from "../components/Pager";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { downloadHref, errorMessage } from "../api/client";
import { FILES_KEY, mimeFor, readFile, uploadFile, useDeleteFile, useFilesPage } from "../api/files";
import { formatBytes, formatDate } from "../components/format";
import { previewKind } from "../components/previews/kind";
import { PreviewView } from "../components/previews/Preview";
import { ErrorText, Screen } from "../components/Guard";
import { RowButton } from "../components/RowButton";
import { Table } from "../components/Table";

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

function FileList() {
  const cursors = useCursors();
  const page = useFilesPage(cursors.current);
  const remove = useDeleteFile();
  const [shown, setShown] = useState<StoredFile | null>(null);
  const items = page.data?.items ?? [];
  return (
    <section className="card" aria-labelledby="list-title">
      <h2 id="list-title">Your files</h2>
      <ErrorText error={page.error ?? remove.error} />
      {page.isPending ? <p>Loading…</p> : items.length === 0 ? <p>No files yet.</p> : null}
      {items.length ? (
        <Table headers={["Name", "Size", "Type", "Status", "Added", "Actions"]}>
          {items.map((f) => (
            <tr key={f.fileId}>
              <td>{f.filename}</td>
              <td className="nowrap">{formatBytes(f.size)}</td>
              <td>{f.mime}</td>
              <td>{f.status}</td>
              <td>{formatDate(f.createdAt)}</td>
              <td className="row-actions">
                <a href={downloadHref(f.fileId)} download={f.filename}>
                  Download {f.filename}
                </a>
                {previewKind(f.filename, f.mime, f.size) ? <RowButton action="Preview" item={f.filename} onClick={() => setShown(f)} /> : null}
                <RowButton action="Delete" item={f.filename} disabled={remove.isPending} onClick={() => remove.mutate(f.fileId)} />
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      <PageButtons cursors={cursors} nextCursor={page.data?.nextCursor} />
      {shown ? <StoredPreview key={shown.fileId} file={shown} onClose={() => setShown(null)} /> : null}
    </section>
  );
}

type StoredFile = { fileId: string; filename: string; mime: string; size: number };

/** A stored file's preview under the list; its bytes come through the API client. */
function StoredPreview({ file, onClose }: { file: StoredFile; onClose: () => void }) {
  const kind = previewKind(file.filename, file.mime, file.size)!;
  return (
    <section className="stored-preview" aria-label={`Preview of ${file.filename}`}>
      <div className="actions">
        <h3>Preview of {file.filename}</h3>
        <button type="button" className="secondary" onClick={onClose}>
          Close preview
        </button>
      </div>
      <PreviewView kind={kind} name={file.filename} mime={file.mime} read={() => readFile(file.fileId)} />
    </section>
  );
}
