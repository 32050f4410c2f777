/** mcp-config: the JSON an MCP client (Claude Desktop, Cursor, ...) needs to reach this server. */
import { TOKEN_SCOPES } from "@vektor/shared/schemas/vocab";
import type { Command } from "commander";
import { context, type GlobalOptions } from "../context";

export function mcpCommand(program: Command): void {
  program
    .command("mcp-config")
    .description("print the MCP client configuration for this server (creates a token when you are signed in without one)")
    .option("--token <token>", "use this API token")
    .option("--read-only", "a new token without mcp:write (only the read tools)")
    .option("--name <name>", "the server's name in the snippet", "vektor")
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { token?: string; readOnly?: boolean; name: string }>();
      const ctx = await context(o);
      let token = o.token ?? ctx.client.t.token;
      if (!token) {
        // Signed in with a session: an MCP client needs a token of its own.
        const created = await ctx.client.tokens.create({ name: "mcp", scopes: o.readOnly ? ["api"] : [...TOKEN_SCOPES] });
        token = created.token;
        ctx.note(`created token ${created.id} (scopes ${created.scopes.join(" ")}); revoke it with: vektor token revoke ${created.id}`);
      }
      const snippet = { mcpServers: { [o.name]: { type: "http", url: `${ctx.baseUrl}/api/mcp`, headers: { Authorization: `Bearer ${token}` } } } };
      process.stdout.write(`${JSON.stringify(snippet, null, 2)}\n`);
    });
}
