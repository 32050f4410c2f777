/** API tokens: create with scopes (the token is shown once, with a copy button), list, revoke. */
import type { CreatedToken } from "@vektor/shared/schemas/account";
import { TOKEN_SCOPES, type TokenScope as Scope } from "@vektor/shared/schemas/vocab";
import { useState, type FormEvent } from "react";
import { useCreateToken, useRevokeToken, useTokens } from "../api/account";
import { formatDate } from "../components/format";
import { ErrorText, Screen } from "../components/Guard";
import { RowButton } from "../components/RowButton";
import { Table } from "../components/Table";

const SCOPE_LABELS: Record<Scope, string> = { api: "API (files, tools, batches, workflows)", "mcp:write": "MCP tools that change things" };
const SCOPES = TOKEN_SCOPES.map((id) => ({ id, label: SCOPE_LABELS[id] }));

export function TokensScreen() {
  return (
    <Screen title="Tokens">
      <CreateToken />
      <TokenList />
    </Screen>
  );
}

function CreateToken() {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["api"]);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const create = useCreateToken();
  const toggle = (scope: Scope, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scopes }, { onSuccess: (token) => (setCreated(token), setName("")) });
  };

  return (
    <section className="card" aria-labelledby="create-title">
      <h2 id="create-title">Create a token</h2>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="token-name">Name</label>
          <input id="token-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <div className="field field-check" key={s.id}>
              <input id={`scope-${s.id}`} type="checkbox" checked={scopes.includes(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} />
              <label htmlFor={`scope-${s.id}`}>{s.label}</label>
            </div>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" disabled={create.isPending || scopes.length === 0}>
            Create token
          </button>
        </div>
        <ErrorText error={create.error} />
      </form>
      {created ? <ShownOnce token={created.token} name={created.name} /> : null}
    </section>
  );
}

function ShownOnce({ token, name }: { token: string; name: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => navigator.clipboard?.writeText(token).then(() => setCopied(true), () => setCopied(false));
  return (
    <div className="shown-once" aria-live="polite">
      <p>
        Token <strong>{name}</strong> created. Copy it now: it is not shown again.
      </p>
      <div className="field">
        <label htmlFor="new-token">Your new token</label>
        <input id="new-token" readOnly value={token} onFocus={(e) => e.target.select()} />
      </div>
      <button type="button" onClick={() => void copy()}>
        Copy
      </button>{" "}
      {copied ? <span>Copied.</span> : null}
    </div>
  );
}

function TokenList() {
  const tokens = useTokens();
  const revoke = useRevokeToken();
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Your tokens</h2>
      <ErrorText error={tokens.error ?? revoke.error} />
      {tokens.data?.length === 0 ? <p>No tokens.</p> : null}
      {tokens.data?.length ? (
        <Table headers={["Name", "Token", "Scopes", "Created", "Last used", "Actions"]}>
          {tokens.data.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                <code>
                  {t.prefix}…{t.last4}
                </code>
              </td>
              <td>{t.scopes.join(", ")}</td>
              <td>{formatDate(t.createdAt)}</td>
              <td>{formatDate(t.lastUsedAt)}</td>
              <td>
                <RowButton action="Revoke" item={t.name} disabled={revoke.isPending} onClick={() => revoke.mutate(t.id)} />
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
