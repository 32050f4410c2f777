/** The account: plan, credit balance, the credit ledger (reasons in words, linked), sessions, password and deletion. */
import type { LedgerEntry } from "@vektor/shared/schemas/account";
import { Link } from "@tanstack/react-router";
import { useLedger } from "../api/account";
import { formatDate } from "../components/format";
import { ErrorText, Screen, useMe } from "../components/Guard";
import { Table } from "../components/Table";
import { ChangePassword, DeleteAccount, Sessions } from "./AccountSecurity";
import { ledgerWords } from "./ledger";

export function AccountScreen() {
  const me = useMe();
  return (
    <Screen title="Account">
      <section className="card" aria-labelledby="balance-title">
        <h2 id="balance-title">Balance</h2>
        <dl className="facts">
          <dt>Email</dt>
          <dd>{me.email}</dd>
          <dt>Plan</dt>
          <dd>{me.plan}</dd>
          <dt>Credits</dt>
          <dd>{me.credits}</dd>
        </dl>
      </section>
      <Ledger />
      <Sessions />
      <ChangePassword />
      <DeleteAccount />
    </Screen>
  );
}

function Ledger() {
  const ledger = useLedger();
  return (
    <section className="card" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Credit ledger</h2>
      <p className="hint">Batches and workflow runs are charged in credits; a single tool run (Convert, on this device or on the server) costs none.</p>
      <ErrorText error={ledger.error} />
      {ledger.data?.length === 0 ? <p>No entries.</p> : null}
      {ledger.data?.length ? (
        <Table headers={["When", "Change", "Reason"]}>
          {ledger.data.map((e) => (
            <tr key={e.id}>
              <td>{formatDate(e.createdAt)}</td>
              <td className="num">{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
              <td>
                <Reason entry={e} />
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}

/** The reason in words, linked to the batch or run it charged or refunded. */
function Reason({ entry }: { entry: LedgerEntry }) {
  const { text, link } = ledgerWords(entry);
  if (!link) return <>{text}</>;
  return link.to === "/batches" ? (
    <Link to="/batches" search={link.search}>
      {text}
    </Link>
  ) : (
    <Link to="/workflows/runs/$runId" params={link.params}>
      {text}
    </Link>
  );
}
