/**
 * The server's validation message of a request's shape ("body.amount: Expected integer; body.reason:
 * Property 'reason' is missing") as sentences a person reads: "Amount must be a whole number.
 * Reason is required." Messages the server already wrote as sentences pass unchanged.
 */

/** One refusal as Elysia words it: where (body, query, params), the field's path, and what is wrong. */
const PART = /^(body|query|params|headers)(?:\.([^:]+))?: (.+)$/;

const PHRASES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^Property '.*' is missing$/, () => "is required"],
  [/^Expected property '.*' to be (\w+) but found: undefined$/, () => "is required"],
  [/^Expected property '.*' to be (\w+) but found: .*$/, (m) => `must be ${KINDS[m[1]!] ?? m[1]}`],
  [/^Property '.*' should be email$/, () => "must be an email address"],
  [/^Property '.*' should not be provided$/, () => "is not expected here"],
  [/^Expected string length greater or equal to 1$/, () => "must not be empty"],
  [/^Expected string length greater or equal to (\d+)$/, (m) => `must be at least ${m[1]} characters long`],
  [/^Expected string length less or equal to (\d+)$/, (m) => `must be at most ${m[1]} characters long`],
  [/^Expected (?:integer|number) to be greater or equal to (-?[\d.]+)$/, (m) => `must be at least ${m[1]}`],
  [/^Expected (?:integer|number) to be less or equal to (-?[\d.]+)$/, (m) => `must be at most ${m[1]}`],
  [/^Expected array length less or equal to (\d+)$/, (m) => `must hold at most ${m[1]} entries`],
  [/^Expected array length greater or equal to (\d+)$/, (m) => `must hold at least ${m[1]} ${m[1] === "1" ? "entry" : "entries"}`],
  [/^Expected (\w+)$/, (m) => `must be ${KINDS[m[1]!] ?? m[1]}`],
];

const KINDS: Record<string, string> = { integer: "a whole number", number: "a number", string: "text", boolean: "true or false", array: "a list", object: "an object" };

/** "notifySecret" -> "Notify secret"; "steps.0.name" -> "Name (steps 1)". */
function fieldName(path: string | undefined, where: string): string {
  if (!path) return where === "body" ? "The request" : `The ${where}`;
  const parts = path.split(".");
  const last = parts.filter((p) => !/^\d+$/.test(p)).at(-1) ?? path;
  const words = last.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return `${words[0]!.toUpperCase()}${words.slice(1)}`;
}

function phrase(detail: string): string {
  for (const [pattern, say] of PHRASES) {
    const m = detail.match(pattern);
    if (m) return say(m);
  }
  return "is not valid";
}

/** The message as sentences when it is a list of shape refusals; otherwise as it came. */
export function validationSentences(message: string): string {
  const parts = message.split("; ").map((p) => p.match(PART));
  if (parts.length === 0 || parts.some((m) => !m)) return message;
  const said = new Map<string, string>();
  for (const m of parts as RegExpMatchArray[]) {
    const field = fieldName(m[2], m[1]!);
    // One sentence a field: the first refusal says the most (a missing one is also "not a string").
    if (!said.has(field)) said.set(field, `${field} ${phrase(m[3]!)}.`);
  }
  return [...said.values()].join(" ");
}
