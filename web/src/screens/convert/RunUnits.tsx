/** A per-file run's files, each with its own progress bar and how it ended. */
import type { UnitState } from "./tool-run";

const WORDS: Record<UnitState["state"], string> = { waiting: "waiting", running: "running", done: "done", failed: "failed" };

export function RunUnits({ units }: { units: UnitState[] }) {
  if (units.length < 2) return null;
  return (
    <ul aria-label="Files in this run" className="run-units">
      {units.map((u, i) => (
        <li key={i}>
          <span className="unit-name">{u.name}</span>
          <progress aria-label={`Progress of ${u.name}`} max={100} value={u.progress} />
          <span className={u.state === "failed" ? "error" : "hint"}>{u.state === "failed" ? `failed: ${u.message}` : WORDS[u.state]}</span>
        </li>
      ))}
    </ul>
  );
}
