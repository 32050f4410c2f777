/** Batch presets: the saved ones (name, tool, options) and a form to save a new one. */
import { useState, type FormEvent } from "react";
import { useCreatePreset, usePresets } from "../../api/batches";
import { formatDate } from "../../components/format";
import { ErrorText } from "../../components/Guard";
import { Table } from "../../components/Table";
import { useCatalog } from "../../tools/use-catalog";
import { ToolChoice, useToolChoice } from "./ToolChoice";

export function Presets() {
  const presets = usePresets();
  const items = presets.data ?? [];
  return (
    <section className="card" aria-labelledby="presets-title">
      <h2 id="presets-title">Presets</h2>
      <ErrorText error={presets.error} />
      {presets.data && items.length === 0 ? <p>No presets yet: save a tool with its options below, then pick it for a new batch.</p> : null}
      {items.length ? (
        <Table headers={["Name", "Tool", "Options", "Created"]}>
          {items.map((p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td>{p.type}</td>
              <td>
                <code>{JSON.stringify(p.params)}</code>
              </td>
              <td>{formatDate(p.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      <NewPreset />
    </section>
  );
}

function NewPreset() {
  const catalog = useCatalog();
  const choice = useToolChoice(catalog.tools.filter((t) => t.onServer));
  const [name, setName] = useState("");
  const [problem, setProblem] = useState("");
  const create = useCreatePreset();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!choice.tool) return;
    const read = choice.read();
    if (!read.ok) return setProblem(read.message);
    setProblem("");
    create.mutate({ name: name.trim(), type: choice.tool.slug, params: read.params }, { onSuccess: () => setName("") });
  };

  return (
    <form aria-labelledby="new-preset-title" onSubmit={submit}>
      <h3 id="new-preset-title">New preset</h3>
      <div className="field">
        <label htmlFor="preset-name">Preset name</label>
        <input id="preset-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <ToolChoice id="preset-tool" label="Preset tool" choice={choice} />
      <div className="actions">
        <button type="submit" disabled={!choice.tool || create.isPending}>
          Save preset
        </button>
      </div>
      <ErrorText message={problem} error={create.error} />
      {create.isSuccess ? <p aria-live="polite">Preset saved.</p> : null}
    </form>
  );
}
