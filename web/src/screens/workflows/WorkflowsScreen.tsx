/**
 * Workflows: the caller's workflows a page at a time, each with its last run and its triggers;
 * search by name; New workflow (blank or from a template), duplicate, delete with confirmation.
 */
import { PageButtons, useCursors } from "../../components/Pager";
import type { Workflow } from "@vektor/shared/schemas/workflow";
import { Link, useNavigate } from "@tanstack/react-router";
import { useDeferredValue, useId, useState, type FormEvent } from "react";
import { useAllWorkflows, useCreateWorkflow, useDeleteWorkflow, useLastRun, useTemplates, useTriggers, useWorkflowsPage } from "../../api/workflows";
import { Dialog } from "../../components/Dialog";
import { formatDate } from "../../components/format";
import { ErrorText, Screen } from "../../components/Guard";
import { RowButton } from "../../components/RowButton";
import { Table } from "../../components/Table";
import { BLANK_GRAPH_JSON } from "./blank";

export function WorkflowsScreen() {
  return (
    <Screen title="Workflows">
      <WorkflowList />
    </Screen>
  );
}

function WorkflowList() {
  const cursors = useCursors();
  const [search, setSearch] = useState("");
  const query = useDeferredValue(search.trim().toLowerCase());
  const page = useWorkflowsPage(cursors.current);
  const all = useAllWorkflows(query !== "");
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const create = useCreateWorkflow();
  const navigate = useNavigate();
  const items = query ? (all.data ?? []).filter((w) => w.name.toLowerCase().includes(query)) : (page.data?.items ?? []);
  const loading = query ? all.isPending : page.isPending;

  const duplicate = (w: Workflow) =>
    create.mutate(
      { name: `Copy of ${w.name}`.slice(0, 200), graphJson: w.graphJson, ...(w.paramsJson ? { paramsJson: w.paramsJson } : {}) },
      { onSuccess: (copy) => void navigate({ to: "/workflows/$id", params: { id: copy.id } }) },
    );

  return (
    <>
      <div className="actions">
        <button type="button" onClick={() => setCreating(true)}>
          New workflow
        </button>
        <Link to="/workflows/runs">All runs</Link>
        <Link to="/approvals">Approvals</Link>
      </div>
      <section className="card" aria-labelledby="wf-list-title">
        <h2 id="wf-list-title">Your workflows</h2>
        <div className="field">
          <label htmlFor="wf-search">Search by name</label>
          <input id="wf-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <ErrorText error={(query ? all.error : page.error) ?? create.error} />
        {loading ? <p>Loading…</p> : items.length === 0 ? <p>{query ? "No workflow has that name." : "No workflows yet."}</p> : null}
        {items.length ? (
          <Table headers={["Name", "Last run", "Triggers", "Changed", "Actions"]}>
            {items.map((w) => (
              <WorkflowRow key={w.id} workflow={w} busy={create.isPending} onDuplicate={() => duplicate(w)} onDelete={() => setDeleting(w)} />
            ))}
          </Table>
        ) : null}
        {query ? null : (
          <PageButtons cursors={cursors} nextCursor={page.data?.nextCursor} />
        )}
      </section>
      {creating ? <NewWorkflowDialog onClose={() => setCreating(false)} /> : null}
      {deleting ? <DeleteDialog workflow={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}

function WorkflowRow({ workflow: w, busy, onDuplicate, onDelete }: { workflow: Workflow; busy: boolean; onDuplicate: () => void; onDelete: () => void }) {
  const run = useLastRun(w.id);
  const triggers = useTriggers(w.id);
  return (
    <tr>
      <td>
        <Link to="/workflows/$id" params={{ id: w.id }}>
          {w.name}
        </Link>
      </td>
      <td>
        {run.isPending ? "…" : run.data ? (
          <>
            <Link to="/workflows/runs/$runId" params={{ runId: run.data.runId }}>
              {run.data.status}
            </Link>{" "}
            <span className="hint">{formatDate(run.data.createdAt)}</span>
          </>
        ) : (
          "never run"
        )}
      </td>
      <td>{triggers.isPending ? "…" : triggers.data?.length ? triggers.data.map((t) => t.type).join(", ") : "manual only"}</td>
      <td>{formatDate(w.updatedAt)}</td>
      <td className="row-actions">
        <RowButton action="Duplicate" item={w.name} disabled={busy} onClick={onDuplicate} />
        <RowButton action="Delete" item={w.name} onClick={onDelete} />
      </td>
    </tr>
  );
}

function NewWorkflowDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const templates = useTemplates();
  const create = useCreateWorkflow();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [template, setTemplate] = useState("");
  const chosen = templates.data?.find((t) => t.id === template);
  const builtIn = templates.data?.filter((t) => t.builtIn) ?? [];
  const own = templates.data?.filter((t) => !t.builtIn) ?? [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = chosen ? { name, graphJson: chosen.graphJson, ...(chosen.paramsJson ? { paramsJson: chosen.paramsJson } : {}) } : { name, graphJson: BLANK_GRAPH_JSON };
    create.mutate(body, { onSuccess: (wf) => void navigate({ to: "/workflows/$id", params: { id: wf.id } }) });
  };

  return (
    <Dialog title="New workflow" onClose={onClose}>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} data-autofocus />
        </div>
        <div className="field">
          <label htmlFor={`${id}-template`}>Template</label>
          <select id={`${id}-template`} value={template} aria-describedby={`${id}-template-hint`} onChange={(e) => setTemplate(e.target.value)}>
            <option value="">Blank</option>
            {builtIn.length ? (
              <optgroup label="Built-in">
                {builtIn.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {own.length ? (
              <optgroup label="Your templates">
                {own.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
          <small id={`${id}-template-hint`} className="hint">
            {chosen ? chosen.description || "Your template." : templates.isPending ? "Loading the templates…" : "Blank starts with one step: the uploaded files a run is given."}
          </small>
        </div>
        <ErrorText error={templates.error ?? create.error} />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            Create
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ workflow, onClose }: { workflow: Workflow; onClose: () => void }) {
  const remove = useDeleteWorkflow();
  return (
    <Dialog title={`Delete ${workflow.name}?`} onClose={onClose}>
      <p>The workflow, all its versions, triggers and runs are deleted. This cannot be undone.</p>
      <ErrorText error={remove.error} />
      <div className="actions">
        <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(workflow.id, { onSuccess: onClose })}>
          Delete workflow
        </button>
        <button type="button" className="secondary" onClick={onClose} data-autofocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
