/**
 * Batches: create one from stored files and a tool or a preset (the charge explained before
 * confirming), follow the open batch live (its event stream; `?open=<id>` opens one, as the
 * Account screen's credit history links to it), the list of batches, the presets.
 */
import { getRouteApi } from "@tanstack/react-router";
import { useBatches } from "../../api/batches";
import { formatDate } from "../../components/format";
import { ErrorText, Screen, useMe } from "../../components/Guard";
import { RowButton } from "../../components/RowButton";
import { Table } from "../../components/Table";
import { BatchView } from "./BatchView";
import { NewBatch } from "./NewBatch";
import { Presets } from "./Presets";
import { ProgressLine } from "./ProgressLine";
import "./batches.css";

const route = getRouteApi("/batches");

export function BatchesScreen() {
  const me = useMe();
  const { open } = route.useSearch();
  const navigate = route.useNavigate();
  const setOpen = (id: string) => void navigate({ search: { open: id } });
  return (
    <Screen title="Batches">
      <NewBatch credits={me.credits} plan={me.plan} onCreated={setOpen} />
      {open ? <BatchView key={open} id={open} /> : null}
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
        <Table headers={["Name", "Tool", "Progress", "Created", ""]}>
          {items.map((b) => (
            <tr key={b.batchId} data-batch={b.batchId}>
              <td>{b.name}</td>
              <td>{b.type}</td>
              <td>
                <ProgressLine id={b.batchId} counters={b} label={`Progress of ${b.name}`} />
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
