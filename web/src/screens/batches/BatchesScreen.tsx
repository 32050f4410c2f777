/**
 * Batches: create one from stored files and a tool or a preset (estimate and balance shown before
 * confirming), follow the open batch live (its event stream), the list of batches, the presets.
 */
import { useState } from "react";
import { useBatches } from "../../api/batches";
import { formatDate } from "../../components/format";
import { ErrorText, Screen, useMe } from "../../components/Guard";
import { RowButton } from "../../components/RowButton";
import { Table } from "../../components/Table";
import { BatchView } from "./BatchView";
import { NewBatch } from "./NewBatch";
import { Presets } from "./Presets";

export function BatchesScreen() {
  const me = useMe();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Screen title="Batches">
      <NewBatch credits={me.credits} onCreated={setOpen} />
      {open ? <BatchView id={open} /> : null}
      <BatchList onOpen={setOpen} />
      <Presets />
    </Screen>
  );
}

function BatchList({ onOpen }: { onOpen: (id: string) => void }) {
  const batches = useBatches();
  const items = batches.data?.items ?? [];
  return (
    <section className="card" aria-labelledby="batches-title">
      <h2 id="batches-title">Your batches</h2>
      <ErrorText error={batches.error} />
      {batches.data && items.length === 0 ? <p>No batches yet.</p> : null}
      {items.length ? (
        <Table headers={["Name", "Tool", "Status", "Done", "Created", ""]}>
          {items.map((b) => (
            <tr key={b.batchId}>
              <td>{b.name}</td>
              <td>{b.type}</td>
              <td>{b.status}</td>
              <td>
                {b.done} of {b.total}
                {b.failed ? `, ${b.failed} failed` : ""}
              </td>
              <td>{formatDate(b.createdAt)}</td>
              <td>
                <RowButton action="Open" item={b.name} onClick={() => onOpen(b.batchId)} />
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
