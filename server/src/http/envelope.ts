/** Builders for the success envelope, so handlers read `return ok(file)`. */
import type { OkBody } from "@vektor/shared/schemas/envelope";

export function ok<T>(data: T): OkBody<T> {
  return { ok: true, data };
}
