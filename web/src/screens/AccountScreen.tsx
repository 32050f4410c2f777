/** The account: plan, credit balance, the credit ledger, sessions, password and deletion. */
import { useLedger } from "../api/account";
import { formatDate } from "../components/format";
import { ErrorText, Screen, useMe } from "../components/Guard";
import { Table } from "../components/Table";
import { ChangePassword, DeleteAccount, Sessions } from "./AccountSecurity";

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
      <ErrorText error={ledger.error} />
      {ledger.data?.length === 0 ? <p>No entries.</p> : null}
      {ledger.data?.length ? (
        <Table headers={["When", "Change", "Reason"]}>
          {ledger.data.map((e) => (
            <tr key={e.id}>
              <td>{formatDate(e.createdAt)}</td>
              <td className="num">{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
              <td>{e.reason}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
