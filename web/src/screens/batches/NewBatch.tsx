/**
 * A new batch: stored files, then either a saved preset (its tool and options) or a server tool
 * that takes the files with its options; the cost and the balance before confirming.
 */
import type { Preset } from "@vektor/shared/schemas/batch";
import { useState, type FormEvent } from "react";
import { useCreateBatch, useEstimate, usePresets } from "../../api/batches";
import { useFilesPage } from "../../api/files";
import { ErrorText } from "../../components/Guard";
import { plural } from "../../components/format";
import { SelectField } from "../../components/SelectField";
import { toolsFor } from "../../tools/catalog";
import { useCatalog } from "../../tools/use-catalog";
import { ToolChoice, useToolChoice } from "./ToolChoice";

export function NewBatch({ credits, onCreated }: { credits: number; onCreated: (id: string) => void }) {
  const files = useFilesPage(undefined);
  const catalog = useCatalog();
  const presets = usePresets();
  const [chosen, setChosen] = useState<string[]>([]);
  const [presetId, setPresetId] = useState("");
  const [problem, setProblem] = useState("");
  const create = useCreateBatch();
  const estimate = useEstimate(chosen.length);

  const uploaded = (files.data?.items ?? []).filter((f) => f.status === "UPLOADED");
  const picked = uploaded.filter((f) => chosen.includes(f.fileId)).map((f) => ({ name: f.filename, type: f.mime }));
  const choice = useToolChoice(
    toolsFor(
      catalog.tools.filter((t) => t.onServer),
      picked,
    ),
  );
  const preset = presets.data?.find((p) => p.id === presetId);
  const cost = estimate.data?.credits;
  const affordable = cost !== undefined && cost <= credits && estimate.data!.withinLimit;

  const toggle = (id: string, on: boolean) => setChosen((list) => (on ? [...list, id] : list.filter((x) => x !== id)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = preset ? { type: preset.type, params: preset.params, engine: preset.engine, name: preset.name } : fromTool();
    if (!body) return;
    setProblem("");
    create.mutate({ ...body, fileIds: chosen }, { onSuccess: (made) => (setChosen([]), onCreated(made.batchId)) });
  };
  const fromTool = () => {
    if (!choice.tool) return null;
    const read = choice.read();
    if (!read.ok) return void setProblem(read.message);
    return { type: choice.tool.slug, params: read.params };
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
      <PresetPicker presets={presets.data ?? []} value={presetId} onChange={setPresetId} />
      {preset ? <p className="hint">Runs {preset.type} with the preset's options.</p> : <ToolChoice id="batch-tool" label="Batch tool" choice={choice} />}
      <p aria-live="polite">
        {cost === undefined
          ? "Choose files to see the cost."
          : `${plural(chosen.length, "file")}: this batch costs ${plural(cost, "credit")}. Your balance: ${plural(credits, "credit")}.`}
        {estimate.data && !estimate.data.withinLimit ? ` Your plan takes at most ${estimate.data.maxFiles} files in a batch.` : ""}
      </p>
      <div className="actions">
        <button type="submit" disabled={!(preset || choice.tool) || !affordable || create.isPending}>
          Create batch
        </button>
      </div>
      <ErrorText message={problem} error={create.error ?? estimate.error ?? presets.error} />
    </form>
  );
}

/** No preset (choose the tool here) or one of the saved presets. */
function PresetPicker({ presets, value, onChange }: { presets: Preset[]; value: string; onChange: (id: string) => void }) {
  if (presets.length === 0) return null;
  const choices = [{ value: "", label: "None: choose the tool below" }, ...presets.map((p) => ({ value: p.id, label: p.name }))];
  return <SelectField id="batch-preset" label="Preset" value={value} choices={choices} onChange={onChange} />;
}
