/** token create | list | revoke (need a session: `vektor login` with e-mail and password). */
import type { CreateTokenBody } from "@vektor/shared/schemas/account";
import { TOKEN_SCOPES } from "@vektor/shared/schemas/vocab";
import { Command, Option } from "commander";
import { context, UsageError, type GlobalOptions } from "../context";

const scopes = new Option("--scope <scope...>", "scopes (default api)").choices(TOKEN_SCOPES);

export function tokenCommands(program: Command): void {
  const token = program.command("token").description("API tokens (vk_...) for scripts and MCP clients");
  token
    .command("create <name>")
    .description("create a token; it is shown once")
    .addOption(scopes)
    .option("--expires-days <days>", "days until it expires", (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`--expires-days must be a whole number of days, got "${v}"`);
      return n;
    })
    .action(async (name: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { scope?: CreateTokenBody["scopes"]; expiresDays?: number }>();
      const ctx = await context(o);
      const t = await ctx.client.tokens.create({ name, scopes: o.scope, expiresInDays: o.expiresDays });
      ctx.print(t, () => [t.token, `(${t.name}, scopes ${t.scopes.join(" ")}${t.expiresAt ? `, expires ${t.expiresAt}` : ""}; shown only now)`]);
    });
  token
    .command("list")
    .description("your tokens (never the token itself)")
    .action(async (_o, cmd: Command) => {
      const ctx = await context(cmd.optsWithGlobals());
      const list = await ctx.client.tokens.list();
      ctx.print(list, () => (list.length ? list.map((t) => `${t.id}  ${t.prefix}...${t.last4}  ${t.name}  [${t.scopes.join(" ")}]  last used ${t.lastUsedAt ?? "never"}`) : "no tokens"));
    });
  token
    .command("revoke <id>")
    .description("revoke a token; it stops working at once")
    .action(async (id: string, _o, cmd: Command) => {
      const ctx = await context(cmd.optsWithGlobals());
      const r = await ctx.client.tokens.revoke(id);
      ctx.print(r, () => `revoked ${r.id}`);
    });
}
