/**
 * The engine a run on this device fetched: a bar and the size while it downloads (the first use
 * of a family), then what it came to, until the next run. Nothing when the engine was at hand.
 */
import { formatBytes } from "../../components/format";
import { sumDownloads, useEngineDownloads } from "../../tools/engine-downloads";
import { familyTitle } from "../../tools/family-titles";

export function EngineDownload({ family }: { family: string | undefined }) {
  const downloads = useEngineDownloads();
  if (!family || downloads.length === 0) return null;
  const { loaded, total, wire, done } = sumDownloads(downloads);
  const name = `the ${familyTitle(family)} engine`;
  const size = total === null ? formatBytes(loaded) : formatBytes(total);
  const travelled = wire !== null && total !== null && wire < total ? `, ${formatBytes(wire)} over the network` : "";
  return (
    <div className="field engine-download">
      <label htmlFor="engine-download">{done ? `Downloaded ${name} (${size}${travelled}); it is kept for next time.` : `Downloading ${name} (${size}${travelled}), once…`}</label>
      <progress id="engine-download" max={total ?? undefined} value={total === null && !done ? undefined : done ? (total ?? loaded) : loaded} />
    </div>
  );
}
