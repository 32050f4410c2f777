/**
 * A listbox to pick one option with the keyboard or the pointer (ARIA listbox pattern, focus on
 * the list, the active option by aria-activedescendant): arrows move, Home/End jump, Enter or
 * Space picks, Escape cancels. Used by "Connect to" and "Add step".
 */
import { forwardRef, useId, useState, type KeyboardEvent } from "react";

export interface Option {
  id: string;
  label: string;
  hint?: string;
  group?: string;
}

interface Props {
  label: string;
  options: Option[];
  onPick: (id: string) => void;
  onCancel: () => void;
  /** Text when there is no option. */
  empty: string;
}

export const OptionList = forwardRef<HTMLUListElement, Props>(function OptionList({ label, options, onPick, onCancel, empty }, ref) {
  const base = useId();
  const [active, setActive] = useState(0);
  const at = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (i: number) => `${base}-${i}`;

  const onKeyDown = (e: KeyboardEvent) => {
    const last = options.length - 1;
    const move = (i: number) => {
      e.preventDefault();
      setActive(i);
      document.getElementById(optionId(i))?.scrollIntoView({ block: "nearest" });
    };
    if (e.key === "ArrowDown") move(Math.min(last, at + 1));
    else if (e.key === "ArrowUp") move(Math.max(0, at - 1));
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(last);
    else if ((e.key === "Enter" || e.key === " ") && options[at]) {
      e.preventDefault();
      onPick(options[at].id);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  if (options.length === 0) return <p className="hint">{empty}</p>;
  let group: string | undefined;
  return (
    <ul ref={ref} role="listbox" aria-label={label} tabIndex={0} className="option-list" aria-activedescendant={optionId(at)} onKeyDown={onKeyDown}>
      {options.map((o, i) => {
        const heading = o.group && o.group !== group ? o.group : null;
        group = o.group;
        return (
          <li
            key={o.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === at}
            aria-label={o.label}
            aria-describedby={o.hint ? `${optionId(i)}-hint` : undefined}
            className={i === at ? "option active" : "option"}
            data-group={heading ?? undefined}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(o.id)}
          >
            <span className="option-label">{o.label}</span>
            {o.hint ? (
              <span id={`${optionId(i)}-hint`} className="option-hint">
                {" "}
                {o.hint}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
});
