/**
 * Versions: every saved version (when, name), one opened read-only, two compared (steps and
 * connections added and removed, settings changed: the model's diff.ts), and restore (a new
 * version with the old content; the editor shows it).
 */
import type { WorkflowVersion, WorkflowVersionDetail } from "@vektor/shared/schemas/workflow";
import { useEffect, useId, useRef, useState } from "react";
import { useRestoreVersion, useVersion, useVersions } from "../../../api/workflows";
import { formatDate } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";
import { diffGraphs, isEmptyDiff, parseGraphJson, titleOf, type CatalogEntry, type EditorGraph } from "../../../workflows/model";
import { paramsSummary } from "./summary";

interface Props {
  workflowId: string;
  catalog: CatalogEntry[];
  onRestored: (graphJson: string, name: string, when: string) => void;
  onClose: () => void;
}

type Listed = WorkflowVersion;

const when = (v: Listed) => `${formatDate(v.createdAt)}${v.current ? " (current)" : ""}`;

export function VersionsPanel({ workflowId, catalog, onRestored, onClose }: Props) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const versions = useVersions(workflowId, true);
  const restore = useRestoreVersion(workflowId);
  const [viewing, setViewing] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<[string, string] | null>(null);
  const list = (versions.data ?? []) as Listed[];
  const byId = new Map(list.map((v) => [v.versionId, v]));

  useEffect(() => heading.current?.focus(), []);

  const toggle = (versionId: string, on: boolean) => setPicked((p) => (on ? [...p.filter((x) => x !== versionId), versionId].slice(-2) : p.filter((x) => x !== versionId)));
  const compare = () => {
    // Older first: the diff reads as what the newer one changed.
    const [a, b] = [...picked].sort((x, y) => byId.get(x)!.createdAt.localeCompare(byId.get(y)!.createdAt) || list.indexOf(byId.get(y)!) - list.indexOf(byId.get(x)!));
    setViewing(null);
    setComparing([a, b]);
  };

  return (
    <section className="side-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Versions
        </h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close panel
        </button>
      </div>
      <p className="hint">Each save is a version. Tick two to compare them.</p>
      <ErrorText error={versions.error ?? restore.error} />
      {versions.isPending ? <p>Loading versions…</p> : null}
      <ul className="versions" aria-label="Saved versions">
        {list.map((v, i) => (
          <li key={v.versionId}>
            <div className="field-check">
              <input id={`${id}-${v.versionId}`} type="checkbox" checked={picked.includes(v.versionId)} onChange={(e) => toggle(v.versionId, e.target.checked)} />
              <label htmlFor={`${id}-${v.versionId}`}>
                Version {list.length - i}, {when(v)}
              </label>
            </div>
            <div className="hint">{v.name}</div>
            <div className="row-actions">
              <button type="button" className="secondary small" aria-label={`View version ${list.length - i}`} onClick={() => (setComparing(null), setViewing(v.versionId))}>
                View
              </button>
              <button
                type="button"
                className="secondary small"
                aria-label={`Restore version ${list.length - i}`}
                disabled={v.current || restore.isPending}
                onClick={() => restore.mutate(v.versionId, { onSuccess: (saved) => onRestored(saved.graphJson, saved.name, formatDate(v.createdAt)) })}
              >
                Restore
              </button>
            </div>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button type="button" disabled={picked.length !== 2} onClick={compare}>
          Compare selected
        </button>
      </div>
      {viewing ? <VersionView workflowId={workflowId} versionId={viewing} label={`Version ${list.length - list.findIndex((v) => v.versionId === viewing)}`} catalog={catalog} /> : null}
      {comparing ? <VersionCompare workflowId={workflowId} ids={comparing} labels={comparing.map((x) => `version ${list.length - list.findIndex((v) => v.versionId === x)}`) as [string, string]} catalog={catalog} /> : null}
    </section>
  );
}

function graphOf(content: WorkflowVersionDetail | undefined): EditorGraph | null {
  if (!content) return null;
  try {
    return parseGraphJson(content.graphJson);
  } catch {
    return null;
  }
}

function VersionView({ workflowId, versionId, label, catalog }: { workflowId: string; versionId: string; label: string; catalog: CatalogEntry[] }) {
  const version = useVersion(workflowId, versionId);
  const graph = graphOf(version.data);
  const id = useId();
  const title = (nodeId: string) => {
    const n = graph?.nodes.find((x) => x.id === nodeId);
    return n ? titleOf(n, catalog) : nodeId;
  };
  return (
    <section className="version-view" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {label} (read-only){version.data ? `: ${version.data.name}` : ""}
      </h3>
      <ErrorText error={version.error} />
      {version.isPending ? <p>Loading version…</p> : null}
      {graph ? (
        <>
          <ul aria-label={`Steps of ${label}`}>
            {graph.nodes.map((n) => (
              <li key={n.id}>
                <strong>{titleOf(n, catalog)}</strong> <span className="hint">({n.id})</span> {paramsSummary(n.data.params)}
              </li>
            ))}
          </ul>
          <p>
            Connections:{" "}
            {graph.edges.length
              ? graph.edges.map((e) => `${title(e.source)} → ${title(e.target)}`).join("; ")
              : "none"}
          </p>
        </>
      ) : null}
    </section>
  );
}

function VersionCompare({ workflowId, ids, labels, catalog }: { workflowId: string; ids: [string, string]; labels: [string, string]; catalog: CatalogEntry[] }) {
  const a = useVersion(workflowId, ids[0]);
  const b = useVersion(workflowId, ids[1]);
  const id = useId();
  const [before, after] = [graphOf(a.data), graphOf(b.data)];
  const diff = before && after ? diffGraphs(before, after) : null;
  const name = (nodeId: string) => {
    const n = after?.nodes.find((x) => x.id === nodeId) ?? before?.nodes.find((x) => x.id === nodeId);
    return n ? `${titleOf(n, catalog)} (${n.id})` : nodeId;
  };
  const show = (v: unknown) => (v === undefined ? "not set" : JSON.stringify(v));
  return (
    <section className="version-diff" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        Changes from {labels[0]} to {labels[1]}
      </h3>
      <ErrorText error={a.error ?? b.error} />
      {a.isPending || b.isPending ? <p>Loading versions…</p> : null}
      {diff && isEmptyDiff(diff) ? <p>No differences.</p> : null}
      {diff && !isEmptyDiff(diff) ? (
        <dl className="diff">
          <DiffList term="Steps added" items={diff.nodesAdded.map((n) => name(n.id))} />
          <DiffList term="Steps removed" items={diff.nodesRemoved.map((n) => name(n.id))} />
          <DiffList term="Settings changed" items={diff.paramsChanged.map((c) => `${name(c.id)}: ${c.keys.map((k) => `${k} ${show(c.before[k])} → ${show(c.after[k])}`).join(", ")}`)} />
          <DiffList term="Kind changed" items={diff.typeChanged.map((c) => `${name(c.id)}: ${c.before} → ${c.after}`)} />
          <DiffList term="Formats narrowed differently" items={diff.ioChanged.map((c) => `${name(c.id)}: ${show(c.before)} → ${show(c.after)}`)} />
          <DiffList term="Connections added" items={diff.edgesAdded.map((e) => `${name(e.source)} → ${name(e.target)}`)} />
          <DiffList term="Connections removed" items={diff.edgesRemoved.map((e) => `${name(e.source)} → ${name(e.target)}`)} />
        </dl>
      ) : null}
    </section>
  );
}

function DiffList({ term, items }: { term: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <>
      <dt>{term}</dt>
      <dd>
        <ul>
          {items.map((t, i) => (
            <li key={i}>{t}</li>
          ))}
        </ul>
      </dd>
    </>
  );
}
