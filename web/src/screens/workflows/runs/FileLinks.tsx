/**
 * Stored files as download links (`Download <name>`) with the Files screen's previews: a run's
 * results, a step's inputs and outputs, the files an approval gates. Long lists show the first
 * few and say how many more there are.
 */
import { downloadHref } from "../../../api/client";
import { readFile } from "../../../api/files";
import { useFileRecord } from "../../../api/workflows";
import { formatBytes } from "../../../components/format";
import { InlinePreview } from "../../../components/previews/Preview";
import { previewKind } from "../../../components/previews/kind";

/** Files shown in full; the rest are counted. */
const SHOWN = 20;

export function FileLinks({ fileIds, label }: { fileIds: readonly string[]; label: string }) {
  if (!fileIds.length) return null;
  const more = fileIds.length - SHOWN;
  return (
    <ul className="file-links" aria-label={label}>
      {fileIds.slice(0, SHOWN).map((fileId) => (
        <FileLink key={fileId} fileId={fileId} />
      ))}
      {more > 0 ? <li className="hint">and {more} more</li> : null}
    </ul>
  );
}

function FileLink({ fileId }: { fileId: string }) {
  const file = useFileRecord(fileId);
  if (file.isPending) return <li className="hint">…</li>;
  // A file deleted since the run: its id is all that is left.
  if (!file.data) return <li className="hint">a file no longer kept</li>;
  return <StoredFileLink fileId={fileId} name={file.data.filename} mime={file.data.mime} size={file.data.size} />;
}

/** One stored file: its download link, size and, when a viewer fits, its preview. */
export function StoredFileLink({ fileId, name, mime, size }: { fileId: string; name: string; mime: string; size: number }) {
  const kind = previewKind(name, mime, size);
  return (
    <li>
      <a href={downloadHref(fileId)} download={name}>
        Download {name}
      </a>{" "}
      <span className="hint">{formatBytes(size)}</span>
      {kind ? <InlinePreview kind={kind} name={name} mime={mime} read={() => readFile(fileId)} /> : null}
    </li>
  );
}
