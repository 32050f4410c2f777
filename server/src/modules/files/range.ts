/** The one `Range: bytes=` form worth serving (a single range); anything else is ignored. */
import { ServiceError } from "@vektor/shared/errors";
import type { ByteRange } from "../../storage/types";

/** null: serve the whole file. Throws a 416 VALIDATION_ERROR for an unsatisfiable range. */
export function parseRange(header: string | null, size: number): ByteRange | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size) throw unsatisfiable(size);
  return { start, end };
}

function unsatisfiable(size: number): ServiceError {
  const err = new ServiceError("VALIDATION_ERROR", `Range not satisfiable for a ${size}-byte file`, { "content-range": `bytes */${size}` });
  err.statusOverride = 416;
  return err;
}
