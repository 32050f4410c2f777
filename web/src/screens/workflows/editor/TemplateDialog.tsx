/** Save as personal template: the current graph and run options (never the notify secret). */
import { useState, type FormEvent } from "react";
import { useCreateTemplate } from "../../../api/workflows";
import { Dialog } from "../../../components/Dialog";
import { ErrorText } from "../../../components/Guard";

export function TemplateDialog({ name, graphJson, paramsJson, onClose, onDone }: { name: string; graphJson: string; paramsJson: string | undefined; onClose: () => void; onDone: (name: string) => void }) {
  const create = useCreateTemplate();
  const [title, setTitle] = useState(name);
  const [description, setDescription] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name: title, description, graphJson, ...(paramsJson ? { paramsJson } : {}) }, { onSuccess: (t) => onDone(t.name) });
  };
  return (
    <Dialog title="Make a personal template" onClose={onClose}>
      <form onSubmit={submit}>
        <p className="hint">It appears under Your templates in New workflow. The notify secret is not copied.</p>
        <div className="field">
          <label htmlFor="template-name">Template name</label>
          <input id="template-name" required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} data-autofocus />
        </div>
        <div className="field">
          <label htmlFor="template-description">Description</label>
          <textarea id="template-description" maxLength={2000} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <ErrorText error={create.error} />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            Create template
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
