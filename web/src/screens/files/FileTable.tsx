/**
 * One page of stored files: a box to choose each, its name, size, format, status in words, where
 * it came from (the tool and the file it was made from, linked to its run or batch), and its
 * actions. A preview opens in a row right under its file and takes the focus there.
 */
import { Link } from "@tanstack/react-router";
import { formatInfo } from "@vektor/shared/formats";
import type { FileRecord } from "@vektor/shared/schemas/file";
import { Fragment, useEffect, useRef } from "react";
import { downloadHref } from "../../api/client";
import { readFile } from "../../api/files";
import { formatBytes, formatDate } from "../../components/format";
import { previewKind } from "../../components/previews/kind";
import { PreviewView } from "../../components/previews/Preview";
import { RowButton } from "../../components/RowButton";
import { Table } from "../../components/Table";
import { useServerTools } from "../../tools/use-catalog";
import { sourceWords, statusWord, type Chosen } from "./file-words";

const HEADERS = ["Choose", "Name", "Size", "Type", "Status", "Made by", "Added", "Actions"];

export interface FileTableProps {
  items: FileRecord[];
  chosen: Chosen<FileRecord>;
  onChoose: (file: FileRecord, on: boolean) => void;
  shown: string | null;
  onShow: (fileId: string | null) => void;
  onDelete: (file: FileRecord) => void;
  deleting: boolean;
}

export function FileTable({ items, chosen, onChoose, shown, onShow, onDelete, deleting }: FileTableProps) {
  const toolTitle = useToolTitles();
  return (
    <div className="file-table">
      <Table headers={HEADERS}>
        {items.map((f) => (
          <Fragment key={f.fileId}>
            <tr className={chosen.has(f.fileId) ? "file-chosen" : undefined}>
              <td>
                <input type="checkbox" aria-label={`Choose ${f.filename}`} checked={chosen.has(f.fileId)} onChange={(e) => onChoose(f, e.target.checked)} />
              </td>
              <td>{f.filename}</td>
              <td className="nowrap">{formatBytes(f.size)}</td>
              <td>{(f.format && formatInfo(f.format)?.title) || f.mime}</td>
              <td>{statusWord(f.status)}</td>
              <td>{f.source ? <SourceText file={f} toolTitle={toolTitle} /> : <span className="hint">Your upload</span>}</td>
              <td>{formatDate(f.createdAt)}</td>
              <td className="row-actions">
                {f.status === "UPLOADED" ? (
                  <a href={downloadHref(f.fileId)} download={f.filename} aria-label={`Download ${f.filename}`}>
                    Download
                  </a>
                ) : null}
                {f.status === "UPLOADED" && previewKind(f.filename, f.mime, f.size) ? (
                  <RowButton action={shown === f.fileId ? "Hide preview" : "Preview"} item={f.filename} onClick={() => onShow(shown === f.fileId ? null : f.fileId)} />
                ) : null}
                <RowButton action="Delete" item={f.filename} disabled={deleting} onClick={() => onDelete(f)} />
              </td>
            </tr>
            {shown === f.fileId ? (
              <tr className="file-preview-row">
                <td colSpan={HEADERS.length} className="file-preview-cell">
                  <StoredPreview file={f} onClose={() => onShow(null)} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </Table>
    </div>
  );
}

/** Tool titles by slug from the server's tool list (the slug itself until it arrives). */
function useToolTitles(): (slug: string) => string | undefined {
  const tools = useServerTools();
  const titles = new Map((tools.data ?? []).map((t) => [t.slug, t.title]));
  return (slug) => titles.get(slug);
}

/** "Compress PDF, made from plan.pdf", with a link to the workflow run or the batches that made it. */
function SourceText({ file, toolTitle }: { file: FileRecord; toolTitle: (slug: string) => string | undefined }) {
  const source = file.source!;
  return (
    <span className="file-source">
      {sourceWords(source, toolTitle)}
      {source.runId ? (
        <>
          {" "}
          (<Link to="/workflows/runs/$runId" params={{ runId: source.runId }} aria-label={`Workflow run that made ${file.filename}`}>
            workflow run
          </Link>
          )
        </>
      ) : source.batchId ? (
        <>
          {" "}
          (<Link to="/batches" search={{ open: source.batchId }} aria-label={`Batch that made ${file.filename}`}>
            batch
          </Link>
          )
        </>
      ) : null}
    </span>
  );
}

/**
 * A stored file's preview in the row under it, focused when it opens so it is where the person
 * is looking (and read out); closing it puts the focus back on what opened it.
 */
function StoredPreview({ file, onClose }: { file: FileRecord; onClose: () => void }) {
  const kind = previewKind(file.filename, file.mime, file.size)!;
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    panel.current?.focus({ preventScroll: true });
    panel.current?.scrollIntoView({ block: "nearest" });
    return () => {
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);
  return (
    <section ref={panel} tabIndex={-1} className="stored-preview" aria-label={`Preview of ${file.filename}`}>
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
