/**
 * A new batch: its name, files chosen from all of the caller's (FilePicker), then either a saved
 * preset (its tool and options) or a server tool that takes the files with its options; the
 * charge explained (base + per file x N = total) and the balance before confirming.
 */
import type { Preset } from "@vektor/shared/schemas/batch";
import { useState, type FormEvent } from "react";
import { useBatchSettings, useCreateBatch, usePresets } from "../../api/batches";
import { ErrorText } from "../../components/Guard";
import { SelectField } from "../../components/SelectField";
import { toolsFor } from "../../tools/catalog";
import { useCatalog } from "../../tools/use-catalog";
import { affordability, chargeText } from "./charge";
import { FilePicker } from "./FilePicker";
import type { Picked } from "./picked";
import { ToolChoice, useToolChoice } from "./ToolChoice";

interface Props {
  credits: number;
  plan: "free" | "pro";
  onCreated: (id: string) => void;
}

export function NewBatch({ credits, plan, onCreated }: Props) {
  const catalog = useCatalog();
  const presets = usePresets();
  const settings = useBatchSettings();
  const [picked, setPicked] = useState<Picked>(new Map());
  const [name, setName] = useState("");
  const [presetId, setPresetId] = useState("");
  const [problem, setProblem] = useState("");
  const create = useCreateBatch();

  const files = [...picked.values()];
  const choice = useToolChoice(
    toolsFor(
      catalog.tools.filter((t) => t.onServer),
      files,
    ),
  );
  const preset = presets.data?.find((p) => p.id === presetId);
  const s = settings.data;
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  const money = s ? affordability(s, files.length, bytes, credits, { maxFiles: s.maxFiles[plan], maxSizeMb: s.maxSizeMb[plan] }) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = preset ? { type: preset.type, params: preset.params, engine: preset.engine } : fromTool();
    if (!body) return;
    setProblem("");
    const named = name.trim() || preset?.name;
    create.mutate({ ...body, fileIds: [...picked.keys()], ...(named ? { name: named } : {}) }, { onSuccess: (made) => (setPicked(new Map()), setName(""), onCreated(made.batchId)) });
  };
  const fromTool = () => {
    if (!choice.tool) return null;
    const read = choice.read();
    if (!read.ok) return void setProblem(read.message);
    return { type: choice.tool.slug, params: read.params };
  };

  return (
    <form className="card new-batch" aria-labelledby="new-batch-title" onSubmit={submit}>
      <h2 id="new-batch-title">New batch</h2>
      <div className="field">
        <label htmlFor="batch-name">Batch name</label>
        <input id="batch-name" maxLength={200} value={name} placeholder={preset?.name ?? (choice.tool ? `${choice.tool.slug} x ${files.length}` : "")} aria-describedby="batch-name-hint" onChange={(e) => setName(e.target.value)} />
        <small id="batch-name-hint" className="hint">
          Optional; you can rename the batch later.
        </small>
      </div>
      <FilePicker picked={picked} onChange={setPicked} />
      <PresetPicker presets={presets.data ?? []} value={presetId} onChange={setPresetId} />
      {preset ? <p className="hint">Runs {preset.type} with the preset's options.</p> : <ToolChoice id="batch-tool" label="Batch tool" choice={choice} />}
      {s && !s.enabled ? <p className="error">Batches are turned off on this installation.</p> : null}
      <div className="charge" aria-live="polite">
        <p id="batch-charge">{s ? chargeText(s, files.length) : "Loading the prices…"}</p>
        {money ? <p id="batch-balance">{money.text}</p> : null}
      </div>
      <div className="actions">
        <button type="submit" disabled={!(preset || choice.tool) || !money?.ok || !s?.enabled || create.isPending}>
          Create batch
        </button>
      </div>
      <ErrorText message={problem} error={create.error ?? settings.error ?? presets.error} />
    </form>
  );
}

/** No preset (choose the tool here) or one of the saved presets. */
function PresetPicker({ presets, value, onChange }: { presets: Preset[]; value: string; onChange: (id: string) => void }) {
  if (presets.length === 0) return null;
  const choices = [{ value: "", label: "None: choose the tool below" }, ...presets.map((p) => ({ value: p.id, label: p.name }))];
  return <SelectField id="batch-preset" label="Preset" value={value} choices={choices} onChange={onChange} />;
}
