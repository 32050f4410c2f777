/** A new batch: stored files, a server tool that takes them, its options, the cost, confirm. */
import { useMemo, useState, type FormEvent } from "react";
import { useCreateBatch, useEstimate } from "../../api/batches";
import { useFilesPage } from "../../api/files";
import { ErrorText } from "../../components/Guard";
import { fieldsOf, readParams, type FieldValue } from "../../components/params-form";
import { ParamsForm } from "../../components/ParamsForm";
import { plural } from "../../components/format";
import { toolsFor, useCatalog } from "../../tools/catalog";

export function NewBatch({ credits, onCreated }: { credits: number; onCreated: (id: string) => void }) {
  const files = useFilesPage(undefined);
  const catalog = useCatalog();
  const [chosen, setChosen] = useState<string[]>([]);
  const [slug, setSlug] = useState("");
  const [values, setValues] = useState<Record<string, FieldValue>>({});
  const [problem, setProblem] = useState("");
  const create = useCreateBatch();
  const estimate = useEstimate(chosen.length);

  const uploaded = (files.data?.items ?? []).filter((f) => f.status === "UPLOADED");
  const picked = uploaded.filter((f) => chosen.includes(f.fileId)).map((f) => ({ name: f.filename, type: f.mime }));
  const tools = toolsFor(
    catalog.tools.filter((t) => t.onServer),
    picked,
  );
  const tool = tools.find((t) => t.slug === slug) ?? tools[0];
  const fields = useMemo(() => (tool ? fieldsOf(tool.params) : []), [tool]);
  const cost = estimate.data?.credits;
  const affordable = cost !== undefined && cost <= credits && estimate.data!.withinLimit;

  const toggle = (id: string, on: boolean) => setChosen((list) => (on ? [...list, id] : list.filter((x) => x !== id)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!tool) return;
    const read = readParams(fields, values);
    if (!read.ok) return setProblem(read.message);
    setProblem("");
    create.mutate({ type: tool.slug, fileIds: chosen, params: read.params }, { onSuccess: (made) => (setChosen([]), onCreated(made.batchId)) });
  };

  return (
    <form className="card" aria-labelledby="new-batch-title" onSubmit={submit}>
      <h2 id="new-batch-title">New batch</h2>
      <fieldset>
        <legend>Files for the batch</legend>
        {uploaded.length === 0 ? <p className="hint">Upload files on the Files screen first.</p> : null}
        {uploaded.map((f) => (
          <div className="field field-check" key={f.fileId}>
            <input id={`pick-${f.fileId}`} type="checkbox" checked={chosen.includes(f.fileId)} onChange={(e) => toggle(f.fileId, e.target.checked)} />
            <label htmlFor={`pick-${f.fileId}`}>{f.filename}</label>
          </div>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="batch-tool">Batch tool</label>
        <select id="batch-tool" value={tool?.slug ?? ""} disabled={tools.length === 0} onChange={(e) => (setSlug(e.target.value), setValues({}))}>
          {tools.map((t) => (
            <option key={t.slug} value={t.slug}>
              {t.title}
            </option>
          ))}
        </select>
      </div>
      {tool ? <ParamsForm key={tool.slug} fields={fields} values={values} onChange={(k, v) => setValues((old) => ({ ...old, [k]: v }))} /> : null}
      <p aria-live="polite">
        {cost === undefined
          ? "Choose files to see the cost."
          : `${plural(chosen.length, "file")}: this batch costs ${plural(cost, "credit")}. Your balance: ${plural(credits, "credit")}.`}
        {estimate.data && !estimate.data.withinLimit ? ` Your plan takes at most ${estimate.data.maxFiles} files in a batch.` : ""}
      </p>
      <div className="actions">
        <button type="submit" disabled={!tool || !affordable || create.isPending}>
          Create batch
        </button>
      </div>
      <ErrorText message={problem} error={create.error ?? estimate.error} />
    </form>
  );
}
