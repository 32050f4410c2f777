/** Random identifiers: a short type prefix and base62 characters from a CSPRNG. */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  // 62 * 4 = 248 < 256: rejecting bytes >= 248 keeps every character equally likely.
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}
