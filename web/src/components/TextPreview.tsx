/** A text or JSON file shown in place (JSON indented); one of the previews (./previews). */
import { useLoaded } from "./previews/use-loaded";

/** Largest file shown as text. */
const MAX_BYTES = 512 * 1024;

export const canPreviewText = (mime: string, size: number) => size <= MAX_BYTES && /^(text\/|application\/(json|geo\+json|xml)|image\/svg\+xml)/.test(mime);

export function TextPreview({ mime, read }: { mime: string; read: () => Promise<Blob> }) {
  const text = useLoaded(async () => {
    const raw = await (await read()).text();
    return /json/.test(mime) ? indent(raw) : raw;
  });
  return <pre tabIndex={0}>{text.error ? `Could not read it: ${text.error}` : (text.value ?? "Loading…")}</pre>;
}

function indent(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
