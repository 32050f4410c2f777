/** One batch, live: progress from its event stream, each file's status and error, cancel, retry, ZIP. */
import { useBatch, useBatchAction, useBatchProgress, zipHref } from "../../api/batches";
import { isBatchFinished } from "../../api/client";
import { ErrorText } from "../../components/Guard";
import { Table } from "../../components/Table";

export function BatchView({ id }: { id: string }) {
  const detail = useBatch(id);
  const batch = detail.data?.batch;
  const finished = batch ? isBatchFinished(batch) : false;
  const live = useBatchProgress(id, Boolean(batch) && !finished);
  const action = useBatchAction(id, () => void detail.refetch());
  if (!batch) return detail.error ? <ErrorText error={detail.error} /> : <p>Loading the batch…</p>;
  const progress = live.progress && !finished ? live.progress : batch;
  const ended = progress.done + progress.failed + (batch.cancelled ?? 0);

  return (
    <section className="card" aria-labelledby="batch-title">
      <h2 id="batch-title">Batch {batch.name}</h2>
      <div className="field">
        <label htmlFor="batch-progress">Batch progress</label>
        <progress id="batch-progress" max={progress.total || 1} value={ended} />
      </div>
      <p aria-live="polite">
        {progress.status}: {progress.done} of {progress.total} done{progress.failed ? `, ${progress.failed} failed` : ""}.
      </p>
      <ErrorText error={live.error ?? action.error} />
      <Table headers={["File", "Status", "Error"]}>
        {detail.data!.files.map((item) => (
          <tr key={item.jobId}>
            <td>{item.filename ?? item.fileId}</td>
            <td>{item.status}</td>
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
        {finished && batch.failed > 0 ? (
          <button type="button" disabled={action.isPending} onClick={() => action.mutate("retry")}>
            Retry failed files
          </button>
        ) : null}
        {finished && batch.done > 0 ? (
          <a className="button" href={zipHref(id)}>
            Download ZIP of {batch.name}
          </a>
        ) : null}
      </div>
    </section>
  );
}
