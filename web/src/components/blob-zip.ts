/**
 * A STORE ZIP (no compression: most outputs are compressed formats already) of Blobs, written a
 * piece at a time into a new Blob, and saving a Blob as a download. Neither the files nor the ZIP
 * are ever whole in the page's memory: the browser keeps big Blobs outside it (on disk if it must).
 */
import { Zip, ZipPassThrough } from "fflate";

/** The ZIP's pieces are gathered into a Blob every this many bytes, and files are read in slices this big. */
const PIECE_BYTES = 16 * 1024 * 1024;

/** `files` in order, under their names (the caller makes them safe and unique). */
export async function storeZipBlob(files: readonly { name: string; blob: Blob }[], modified = new Date()): Promise<Blob> {
  let zipped = new Blob([]);
  let pieces: Uint8Array[] = [];
  let held = 0;
  let failure: Error | null = null;
  const gather = () => {
    zipped = new Blob([zipped, ...(pieces as Uint8Array<ArrayBuffer>[])]);
    pieces = [];
    held = 0;
  };
  const zip = new Zip((err, piece) => {
    if (err) failure = err;
    else {
      pieces.push(piece);
      held += piece.byteLength;
    }
  });
  for (const file of files) {
    const entry = new ZipPassThrough(file.name);
    entry.mtime = modified;
    zip.add(entry);
    // Read in big slices: each read of a Blob is a round trip to where the browser keeps it.
    for (let at = 0; at < file.blob.size; at += PIECE_BYTES) {
      entry.push(new Uint8Array(await file.blob.slice(at, at + PIECE_BYTES).arrayBuffer()));
      if (held >= PIECE_BYTES) gather();
    }
    entry.push(new Uint8Array(0), true);
  }
  zip.end();
  if (failure) throw failure;
  gather();
  return new Blob([zipped], { type: "application/zip" });
}

/** Saves `blob` as a download named `name` (a click on a link to it, made for the purpose). */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  Object.assign(document.createElement("a"), { href, download: name }).click();
  // The download has its own copy once started; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
