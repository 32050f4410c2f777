/** login, logout, whoami. */
import { ApiError, VektorClient } from "@vektor/shared/client";
import type { Command } from "commander";
import { read } from "read";
import { context, UsageError, type GlobalOptions } from "../context";
import { clearSettings, loadSettings, saveSettings, settingsPath } from "../settings";

interface LoginOptions {
  email?: string;
  password?: string;
  token?: string;
}

async function ask(prompt: string, silent: boolean): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError(`${prompt.replace(/:\s*$/, "")} needed: pass it as an option${silent ? " or set VEKTOR_PASSWORD" : ""}`);
  return read({ prompt, silent, replace: silent ? "*" : undefined, output: process.stderr });
}

async function login(opts: LoginOptions & GlobalOptions): Promise<void> {
  const ctx = await context(opts);
  const client = new VektorClient({ baseUrl: ctx.baseUrl });
  if (opts.token) {
    if (!opts.token.startsWith("vk_")) throw new UsageError("an API token starts with vk_");
    const account = await client.withToken(opts.token).account();
    const path = await saveSettings({ baseUrl: ctx.baseUrl, token: opts.token, email: account.email });
    return ctx.print({ baseUrl: ctx.baseUrl, email: account.email, config: path }, () => `logged in to ${ctx.baseUrl} as ${account.email} (API token; saved in ${path})`);
  }
  const email = opts.email ?? (await ask("E-mail: ", false));
  const password = opts.password ?? process.env.VEKTOR_PASSWORD ?? (await ask("Password: ", true));
  if (!email || !password) throw new UsageError("e-mail and password are needed");
  await client.auth.signIn({ email, password });
  if (!client.t.cookie) throw new ApiError(401, "UNAUTHORIZED", "the server answered without a session", null);
  const path = await saveSettings({ baseUrl: ctx.baseUrl, cookie: client.t.cookie, email });
  ctx.print({ baseUrl: ctx.baseUrl, email, config: path }, () => `logged in to ${ctx.baseUrl} as ${email} (saved in ${path})`);
}

async function logout(opts: GlobalOptions): Promise<void> {
  const ctx = await context(opts);
  // Ending the session on the server is a courtesy; the local credentials go either way.
  if (ctx.client.t.cookie) await ctx.client.auth.signOut().catch(() => {});
  const had = Boolean((await loadSettings()).baseUrl);
  await clearSettings();
  ctx.print({ loggedOut: had }, () => (had ? `logged out (removed ${settingsPath()})` : "not logged in"));
}

async function whoami(opts: GlobalOptions): Promise<void> {
  const ctx = await context(opts);
  const a = await ctx.client.account();
  ctx.print({ baseUrl: ctx.baseUrl, ...a }, () => [`${a.email} on ${ctx.baseUrl}`, `name: ${a.name}`, `role: ${a.role}`, `plan: ${a.plan}`, `credits: ${a.credits}`]);
}

export function authCommands(program: Command): void {
  program
    .command("login")
    .description("sign in with e-mail and password (or save an API token); the credentials go to a 0600 file")
    .option("--email <email>", "account e-mail (prompted when missing)")
    .option("--password <password>", "password (else VEKTOR_PASSWORD, else prompted)")
    .option("--token <token>", "save this API token (vk_...) instead of signing in")
    .action((o: LoginOptions, cmd: Command) => login(cmd.optsWithGlobals()));
  program
    .command("logout")
    .description("end the session and forget the saved credentials")
    .action((_o, cmd: Command) => logout(cmd.optsWithGlobals()));
  program
    .command("whoami")
    .description("the signed-in account: e-mail, role, plan, credits")
    .action((_o, cmd: Command) => whoami(cmd.optsWithGlobals()));
}
