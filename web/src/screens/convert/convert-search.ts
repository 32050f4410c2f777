/** Convert's route search (`?files=`, stored files to start from); pure, so the router's shell imports only this. */

/** At most this many stored files go to Convert at once (their bytes come to this device). */
export const MAX_STORED_INPUTS = 20;
const FILE_ID = /^f_[A-Za-z0-9]{1,40}$/;

/** The ids in a `files` search value: well-formed, each once, at most MAX_STORED_INPUTS. */
export function storedIdsOf(raw: unknown): string[] {
  if (typeof raw !== "string") return [];
  return [...new Set(raw.split(",").filter((id) => FILE_ID.test(id)))].slice(0, MAX_STORED_INPUTS);
}

/** Convert's route search, validated: `files` kept only as well-formed ids. */
export function convertSearch(search: Record<string, unknown>): { files?: string } {
  const ids = storedIdsOf(search.files);
  return ids.length ? { files: ids.join(",") } : {};
}
