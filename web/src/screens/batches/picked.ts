/**
 * The files chosen for a batch, kept across searches and pages: by id, with the name and type the
 * tool list needs, in the order they were chosen.
 */
export interface PickedFile {
  fileId: string;
  name: string;
  type: string;
  size: number;
}

export type Picked = ReadonlyMap<string, PickedFile>;

/** Adds (on) or removes (off) one file. */
export function toggle(picked: Picked, file: PickedFile, on: boolean): Picked {
  const next = new Map(picked);
  if (on) next.set(file.fileId, file);
  else next.delete(file.fileId);
  return next;
}

/** Adds every file of `files` (those already chosen keep their place). */
export function addAll(picked: Picked, files: readonly PickedFile[]): Picked {
  const next = new Map(picked);
  for (const f of files) if (!next.has(f.fileId)) next.set(f.fileId, f);
  return next;
}

/** Removes every file of `files`. */
export function removeAll(picked: Picked, files: readonly PickedFile[]): Picked {
  const next = new Map(picked);
  for (const f of files) next.delete(f.fileId);
  return next;
}

/** "3 files chosen (2 not shown by this search)". */
export function pickedText(picked: Picked, shown: readonly { fileId: string }[], searching: boolean): string {
  const n = picked.size;
  const head = n === 0 ? "No file chosen" : `${n} ${n === 1 ? "file" : "files"} chosen`;
  if (!searching || n === 0) return `${head}.`;
  const visible = new Set(shown.map((f) => f.fileId));
  const hidden = [...picked.keys()].filter((id) => !visible.has(id)).length;
  return hidden ? `${head} (${hidden} not on this page of the search).` : `${head}.`;
}
