/**
 * One batch, live: its name (renamed in place), progress from its event stream (the same counters
 * the list shows), each file's status and error with a download of its outputs, cancel, retry, the
 * ZIP of all outputs.
 */
import type { BatchItem } from "@vektor/shared/schemas/batch";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useCounters } from "../../api/batch-counters";
import { useBatch, useBatchAction, useBatchProgress, useRenameBatch, zipHref } from "../../api/batches";
import { downloadHref, isBatchFinished } from "../../api/client";
import { formatBytes } from "../../components/format";
import { ErrorText } from "../../components/Guard";
import { Table } from "../../components/Table";
import { ProgressLine } from "./ProgressLine";

const ITEM_WORDS: Record<BatchItem["status"], string> = { queued: "Waiting", running: "Running", succeeded: "Done", failed: "Failed", cancelled: "Cancelled" };

export function BatchView({ id }: { id: string }) {
  const detail = useBatch(id);
  const batch = detail.data?.batch;
  // The shared counters, not the detail's own: the list may have heard the end first.
  const counters = useCounters(id, batch);
  const finished = counters ? isBatchFinished(counters) : false;
  const live = useBatchProgress(id, Boolean(batch) && !finished);
  const action = useBatchAction(id, () => void detail.refetch());
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the list or a link: bring it into view. A block body: Chromium's scrollIntoView
  // answers a Promise, which React would take for the effect's clean-up and call.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "nearest" });
  }, [id, Boolean(batch)]);
  if (!batch) return detail.error ? <ErrorText error={detail.error} /> : <p>Loading the batch…</p>;
  const shown = counters ?? batch;

  return (
    <section className="card batch-view" aria-labelledby="batch-title">
      <h2 id="batch-title" ref={heading} tabIndex={-1}>
        Batch {batch.name}
      </h2>
      <Rename id={id} name={batch.name} />
      <ProgressLine id={id} counters={batch} label="Batch progress" />
      <ErrorText error={live.error ?? action.error} />
      <Table headers={["File", "Status", "Output", "Error"]}>
        {detail.data!.files.map((item) => (
          <tr key={item.jobId}>
            <td>{item.filename ?? item.fileId}</td>
            <td>{ITEM_WORDS[item.status]}</td>
            <td>
              <Outputs item={item} />
            </td>
            <td>{item.errorCode ? `${item.errorCode}: ${item.error ?? ""}` : ""}</td>
          </tr>
        ))}
      </Table>
      <div className="actions">
        {!finished ? (
          <button type="button" className="secondary" disabled={action.isPending} onClick={() => action.mutate("cancel")}>
            Cancel batch
          </button>
        ) : null}
        {finished && shown.failed > 0 ? (
          <button type="button" disabled={action.isPending} onClick={() => action.mutate("retry")}>
            Retry failed files
          </button>
        ) : null}
        {finished && shown.done > 0 ? (
          <a className="button" href={zipHref(id)}>
            Download ZIP of {batch.name}
          </a>
        ) : null}
      </div>
    </section>
  );
}

/** Each output of an item as its own download, beside the ZIP of them all. */
function Outputs({ item }: { item: BatchItem }) {
  if (item.outputs.length === 0) return item.status === "succeeded" ? <span className="hint">no longer kept</span> : null;
  return (
    <ul className="batch-outputs">
      {item.outputs.map((o) => (
        <li key={o.fileId}>
          <a href={downloadHref(o.fileId)} download={o.filename}>
            {o.filename}
          </a>{" "}
          <span className="hint">{formatBytes(o.size)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The batch's name, changed in place: Rename opens the field, Save sends it (the server trims and checks it). */
function Rename({ id, name }: { id: string; name: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useRenameBatch(id);
  if (draft === null)
    return (
      <div className="actions">
        <button type="button" className="secondary" onClick={() => (rename.reset(), setDraft(name))}>
          Rename batch
        </button>
        {rename.isSuccess ? <span aria-live="polite">Renamed.</span> : null}
      </div>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate(draft, { onSuccess: () => setDraft(null) });
  };
  return (
    <form className="rename-batch" onSubmit={submit}>
      <div className="field">
        <label htmlFor="rename-batch">New name</label>
        <input id="rename-batch" autoFocus maxLength={200} value={draft} onChange={(e) => setDraft(e.target.value)} />
      </div>
      <div className="actions">
        <button type="submit" disabled={rename.isPending}>
          Save name
        </button>
        <button type="button" className="secondary" onClick={() => setDraft(null)}>
          Keep the name
        </button>
      </div>
      <ErrorText error={rename.error} />
    </form>
  );
}
