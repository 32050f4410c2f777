/**
 * A server tool and its options, as both batch forms ask for them (a new batch without a preset,
 * a new preset): the select, the params form from the tool's schema, and reading the params back.
 */
import { useMemo, useState } from "react";
import { fieldsOf, readParams, type FieldSpec, type FieldValue, type ReadResult } from "../../components/params-form";
import { ParamsForm } from "../../components/ParamsForm";
import { SelectField } from "../../components/SelectField";
import type { ToolInfo } from "../../tools/catalog";

export interface ToolChoiceState {
  tools: ToolInfo[];
  tool: ToolInfo | undefined;
  fields: FieldSpec[];
  values: Record<string, FieldValue>;
  choose: (slug: string) => void;
  set: (key: string, value: FieldValue) => void;
  /** The params as the tool takes them, or why not. */
  read: () => ReadResult;
}

/** The chosen tool of `tools` (the first until one is picked) and its option values. */
export function useToolChoice(tools: ToolInfo[]): ToolChoiceState {
  const [slug, setSlug] = useState("");
  const [values, setValues] = useState<Record<string, FieldValue>>({});
  const tool = tools.find((t) => t.slug === slug) ?? tools[0];
  const fields = useMemo(() => (tool ? fieldsOf(tool.params) : []), [tool]);
  return {
    tools,
    tool,
    fields,
    values,
    choose: (next) => (setSlug(next), setValues({})),
    set: (key, value) => setValues((old) => ({ ...old, [key]: value })),
    read: () => readParams(fields, values),
  };
}

export function ToolChoice({ id, label, choice }: { id: string; label: string; choice: ToolChoiceState }) {
  const { tools, tool } = choice;
  return (
    <>
      <SelectField id={id} label={label} value={tool?.slug ?? ""} choices={tools.map((t) => ({ value: t.slug, label: t.title }))} disabled={tools.length === 0} onChange={choice.choose} />
      {tool ? <ParamsForm key={tool.slug} fields={choice.fields} values={choice.values} onChange={choice.set} /> : null}
    </>
  );
}
