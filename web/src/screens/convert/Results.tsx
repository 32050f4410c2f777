/** The outputs of the last run as download links, each with a preview when one fits. */
import { formatBytes } from "../../components/format";
import { previewKind } from "../../components/previews/kind";
import { InlinePreview } from "../../components/previews/Preview";
import type { Result } from "./runs";

export function Results({ results }: { results: Result[] }) {
  if (results.length === 0) return null;
  return (
    <section aria-labelledby="results-title" className="card">
      <h2 id="results-title">Results</h2>
      <ul className="results">
        {results.map((r) => (
          <li key={r.href}>
            <a href={r.href} download={r.name}>
              Download {r.name}
            </a>{" "}
            <span className="hint">
              ({formatBytes(r.size)}, {r.mime})
            </span>
            <ResultPreview result={r} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ResultPreview({ result: r }: { result: Result }) {
  const kind = previewKind(r.name, r.mime, r.size);
  return kind ? <InlinePreview kind={kind} name={r.name} mime={r.mime} read={r.read} /> : null;
}
