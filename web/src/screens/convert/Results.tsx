/**
 * The outputs of the last run as download links, each with a preview when one fits; grouped by
 * input file when the tool ran once per file, and all of them as one ZIP ("Download all").
 */
import { useState } from "react";
import { errorMessage } from "../../api/client";
import { formatBytes } from "../../components/format";
import { previewKind } from "../../components/previews/kind";
import { InlinePreview } from "../../components/previews/Preview";
import { saveBlob } from "../../components/blob-zip";
import { storeZip } from "./download-all";
import type { Result } from "./runs";

export function Results({ results, zipName }: { results: Result[]; zipName: string }) {
  if (results.length === 0) return null;
  const groups = new Map<string, Result[]>();
  for (const r of results) groups.set(r.source ?? "", [...(groups.get(r.source ?? "") ?? []), r]);
  return (
    <section aria-labelledby="results-title" className="card">
      <h2 id="results-title">Results</h2>
      {results.length > 1 ? <DownloadAll results={results} name={zipName} /> : null}
      {[...groups].map(([source, list]) => (
        <div key={source}>
          {source ? <h3 className="result-source">From {source}</h3> : null}
          <ul className="results">
            {list.map((r) => (
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
        </div>
      ))}
    </section>
  );
}

/** Reads every result (from memory, or from the server), stores them in a ZIP and saves it. */
function DownloadAll({ results, name }: { results: Result[]; name: string }) {
  const [state, setState] = useState<{ busy: boolean; error: string }>({ busy: false, error: "" });
  async function save() {
    setState({ busy: true, error: "" });
    try {
      const files = await Promise.all(results.map(async (r) => ({ name: r.name, blob: await r.read() })));
      saveBlob(await storeZip(files), name);
      setState({ busy: false, error: "" });
    } catch (err) {
      setState({ busy: false, error: `Could not make the ZIP: ${errorMessage(err)}` });
    }
  }
  return (
    <p className="actions">
      <button type="button" onClick={() => void save()} disabled={state.busy}>
        Download all ({results.length} files, ZIP)
      </button>
      {state.error ? <span className="error">{state.error}</span> : null}
    </p>
  );
}

function ResultPreview({ result: r }: { result: Result }) {
  const kind = previewKind(r.name, r.mime, r.size);
  return kind ? <InlinePreview kind={kind} name={r.name} mime={r.mime} read={r.read} /> : null;
}
