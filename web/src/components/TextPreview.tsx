/**
 * A text or JSON result shown in place (JSON indented), read when first opened. Other kinds
 * (3D, point clouds, maps, PDF pages) get their own viewers later (issue 13).
 */
import { useState } from "react";

/** Largest file shown as text. */
const MAX_BYTES = 512 * 1024;

export const canPreviewText = (mime: string, size: number) => size <= MAX_BYTES && /^(text\/|application\/(json|geo\+json|xml)|image\/svg\+xml)/.test(mime);

export function TextPreview({ name, mime, read }: { name: string; mime: string; read: () => Promise<Blob> }) {
  const [text, setText] = useState<string | null>(null);
  const load = async () => {
    if (text !== null) return;
    const raw = await (await read()).text().catch((err: Error) => `Could not read it: ${err.message}`);
    setText(/json/.test(mime) ? indent(raw) : raw);
  };
  return (
    <details className="preview" onToggle={(e) => (e.currentTarget.open ? void load() : undefined)}>
      <summary>Preview {name}</summary>
      <pre tabIndex={0}>{text ?? "Loading…"}</pre>
    </details>
  );
}

function indent(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
