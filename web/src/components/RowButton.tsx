/** A button acting on one row of a table, named for screen readers with the row's item ("Revoke laptop"). */
export function RowButton({ action, item, disabled, onClick }: { action: string; item: string; disabled?: boolean; onClick: () => void }) {
  return (
    <button type="button" className="secondary" aria-label={`${action} ${item}`} disabled={disabled} onClick={onClick}>
      {action}
    </button>
  );
}
