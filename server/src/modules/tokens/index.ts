/** API tokens: create (shown once), list, revoke. Session cookie only. */
import { CreatedToken, CreateTokenBody, TokenInfo, TokenRevoked } from "@vektor/shared/schemas/account";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import type { Services } from "../../services";

export function tokensModule(s: Pick<Services, "callers" | "tokens">) {
  const { doc, docJson } = routeDocs();
  return new Elysia({ prefix: "/api/tokens" })
    .use(jsonBody)
    .use(authMacro(s.callers))
    .get(
      "",
      async ({ caller }) => {
        return ok(await s.tokens.list(caller.id));
      },
      doc({ summary: "The caller's API tokens (never the token itself)", tags: ["Tokens"], auth: "session", data: Type.Array(TokenInfo) }),
    )
    .post(
      "",
      async ({ caller, body}) => {
        return ok(await s.tokens.create(caller.id, body));
      },
      {
        ...docJson(CreateTokenBody, { summary: "Create an API token", description: "The plain `vk_` token is in this answer only; the server keeps a hash. Scopes: `api` (default: use the S endpoints with `Authorization: Bearer`), `mcp:write` (MCP write tools).", tags: ["Tokens"], auth: "session", errors: ["LIMIT_EXCEEDED"], data: CreatedToken }),
      },
    )
    .delete(
      "/:id",
      async ({ caller, params}) => {
        return ok(await s.tokens.revoke(caller.id, params.id));
      },
      { params: Type.Object({ id: Type.String({ maxLength: 100 }) }), ...doc({ summary: "Revoke a token; it stops working at once", tags: ["Tokens"], auth: "session", errors: ["NOT_FOUND"], data: TokenRevoked }) },
    );
}
