/**
 * "Download all": the results of a run in one ZIP, stored rather than deflated (most outputs are
 * compressed formats already, and storing is instant on a phone). Names are made unique in the
 * archive, since a per-file run may give several files the same name.
 */
import { storeZipBlob } from "../../components/blob-zip";

export interface NamedBlob {
  name: string;
  blob: Blob;
}

/** `name`, or `name (2)`, `name (3)`… before the extension, the first not in `taken` (which it joins). */
export function uniqueName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** A STORE ZIP (no compression) of `files`, in order, each under a unique name, written from their Blobs (blob-zip.ts). */
export function storeZip(files: NamedBlob[]): Promise<Blob> {
  const taken = new Set<string>();
  return storeZipBlob(files.map((f) => ({ name: uniqueName(f.name, taken), blob: f.blob })));
}

/** The archive's name: the tool's, e.g. `pdf-compress-results.zip`. */
export const zipName = (slug: string) => `${slug.replace(/[^a-z0-9]+/gi, "-")}-results.zip`;
