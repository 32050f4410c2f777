/**
 * Where the sign-in page sends someone back to once signed in: the address of the signed-in
 * screen they were turned away from (its `redirect` search parameter), only ever a page of this
 * app, so a crafted link cannot send a person who just signed in to another site.
 */

/** The sign-in route's search, validated: `redirect` kept only when it is a path of this app. */
export function signInSearch(search: Record<string, unknown>): { redirect?: string } {
  const back = search.redirect;
  return typeof back === "string" && isAppPath(back) ? { redirect: back } : {};
}

// Resolved against a stand-in origin: a path stays on it; "//host", "/\host" and "scheme:" leave it.
const HERE = "http://app.invalid";
const isAppPath = (href: string) => href.startsWith("/") && URL.canParse(href, HERE) && new URL(href, HERE).origin === HERE;
