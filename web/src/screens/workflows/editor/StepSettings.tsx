/**
 * A step's settings: the form generated from its kind's params schema, with the same code as
 * Convert (components/ParamsForm + params-form.ts). `op.workflow` picks its workflow from the
 * caller's own. Apply makes the change one undo step.
 */
import type { Workflow } from "@vektor/shared/schemas/workflow";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { ParamsForm } from "../../../components/ParamsForm";
import { fieldsOf, fieldValue, readParams, type FieldValue, type JsonSchema } from "../../../components/params-form";
import { ErrorText } from "../../../components/Guard";
import type { CatalogEntry, EditorNode } from "../../../workflows/model";

interface Props {
  node: EditorNode;
  entry: CatalogEntry | undefined;
  title: string;
  problems: string[];
  workflows: Workflow[] | undefined;
  selfId: string;
  onApply: (params: Record<string, unknown>) => void;
  /** Try up to this step on this device, with the form's values applied first. */
  onTry: () => void;
  onClose: () => void;
}

const WORKFLOW_KEY = "workflowId";

export function StepSettings({ node, entry, title, problems, workflows, selfId, onApply, onTry, onClose }: Props) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const picksWorkflow = node.type === "op.workflow";
  const allFields = useMemo(() => fieldsOf((entry?.params ?? {}) as JsonSchema), [entry]);
  const fields = picksWorkflow ? allFields.filter((f) => f.key !== WORKFLOW_KEY) : allFields;
  const params = node.data.params ?? {};
  const initial = () => Object.fromEntries(fields.map((f) => [f.key, fieldValue(f, params[f.key])]));
  const [values, setValues] = useState<Record<string, FieldValue>>(initial);
  const [workflowId, setWorkflowId] = useState(String(params[WORKFLOW_KEY] ?? ""));
  const [message, setMessage] = useState("");

  useEffect(() => heading.current?.focus(), [node.id]);
  // An undo or redo changes the params under the form: show them.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => (setValues(initial()), setWorkflowId(String(params[WORKFLOW_KEY] ?? ""))), [node.data.params]);

  /** Applies the form's values; false (with the reason shown) when they do not hold. */
  const apply = (): boolean => {
    const read = readParams(fields, values);
    if (!read.ok) return (setMessage(read.message), false);
    if (picksWorkflow && !workflowId) return (setMessage("Choose the workflow this step runs."), false);
    setMessage("");
    onApply(picksWorkflow ? { ...read.params, [WORKFLOW_KEY]: workflowId } : read.params);
    return true;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply();
  };

  const choices = (workflows ?? []).filter((w) => w.id !== selfId);
  return (
    <section className="side-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Settings of {title}
        </h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close panel
        </button>
      </div>
      <p className="hint">
        Step <code>{node.id}</code>: {entry?.description ?? `Unknown kind ${node.type}.`}
      </p>
      {problems.length ? (
        <ul className="error">
          {problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={submit}>
        {picksWorkflow ? (
          <div className="field">
            <label htmlFor={`${id}-wf`}>Workflow to run</label>
            <select id={`${id}-wf`} value={workflowId} onChange={(e) => setWorkflowId(e.target.value)}>
              <option value="">(choose one of your workflows)</option>
              {workflowId && !choices.some((w) => w.id === workflowId) ? <option value={workflowId}>{workflowId} (not one of yours)</option> : null}
              {choices.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <ParamsForm fields={fields} values={values} onChange={(k, v) => setValues((old) => ({ ...old, [k]: v }))} />
        <ErrorText error={null} message={message} />
        <div className="actions">
          <button type="submit">Apply</button>
          <button type="button" className="secondary" onClick={() => apply() && onTry()} aria-describedby={`${id}-try`}>
            Try up to here
          </button>
        </div>
        <small id={`${id}-try`} className="hint">
          Applies these settings and runs the steps up to this one on this device, saved or not, with files you pick: nothing uploaded, no credits.
        </small>
      </form>
    </section>
  );
}
