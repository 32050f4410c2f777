/** The outputs of the last run as download links. */
import { formatBytes } from "../../components/format";
import { canPreviewText, TextPreview } from "../../components/TextPreview";
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
            {canPreviewText(r.mime, r.size) ? <TextPreview name={r.name} mime={r.mime} read={r.read} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
