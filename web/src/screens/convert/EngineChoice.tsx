/** The "Run on" choice: This device or Server, each disabled with its reason when it cannot run. */
import { ENGINE_NAMES, type Engine } from "./engine";

/** Only batches and workflow runs are charged (the server's tool runs take no credits; server/test/batch-names.test.ts). */
export const SERVER_RUN_COST = "A run on the server costs no credits; only batches and workflow runs are charged.";

interface Props {
  value: Engine;
  /** The hint about the engine in use (where the files go), shown unless it is blocked. */
  reason: string;
  blocked: Record<Engine, string | null>;
  disabled: boolean;
  onPick: (engine: Engine) => void;
}

export function EngineChoice({ value, reason, blocked, disabled, onPick }: Props) {
  const engines: Engine[] = ["device", "server"];
  return (
    <fieldset className="engine" disabled={disabled} aria-describedby={value === "server" ? "engine-hint engine-cost" : "engine-hint"}>
      <legend>Run on</legend>
      <div className="choices">
        {engines.map((engine) => (
          <label key={engine} className="choice">
            <input type="radio" name="engine" value={engine} checked={value === engine} disabled={blocked[engine] !== null} onChange={() => onPick(engine)} />
            {ENGINE_NAMES[engine]}
          </label>
        ))}
      </div>
      <small id="engine-hint" className="hint">
        {blocked[value] ?? reason}
        {value === "device" && blocked.server ? ` Server: ${blocked.server}` : null}
      </small>
      {value === "server" && !blocked.server ? (
        // Read on as the hint's next sentence.
        <small id="engine-cost" className="hint">
          {` ${SERVER_RUN_COST}`}
        </small>
      ) : null}
    </fieldset>
  );
}
