/** Thumbnails of a PDF's first pages, rendered on this device by the PDF tools (pdf.render-png). */
import { ToolError } from "@vektor/shared/tools/manifest";
import { useEffect } from "react";
import { outputBlob } from "../../../tools/output-blob";
import type { ViewerProps } from "../Preview";
import { useLoaded } from "../use-loaded";
import { runForView } from "./device-run";
import { ViewerFrame } from "./ViewerFrame";

/** Pages shown; a longer document says how many more it has. */
const MAX_PAGES = 24;
/** Small on purpose: an A4 page at 48 dpi is about 400 px tall. */
const DPI = 48;

interface Page {
  url: string;
  name: string;
}

export default function PdfPages({ name, read }: ViewerProps) {
  const pages = useLoaded(async (signal) => thumbnails(name, await read(), signal));
  useEffect(() => () => pages.value?.forEach((p) => URL.revokeObjectURL(p.url)), [pages.value]);
  const list = pages.value ?? [];
  return (
    <ViewerFrame error={pages.error} loading={!pages.value} hint={list.length === MAX_PAGES ? `The first ${MAX_PAGES} pages.` : undefined}>
      <ol className="thumbnails" aria-label={`Pages of ${name}`}>
        {list.map((p, i) => (
          <li key={p.url}>
            <img src={p.url} alt={`Page ${i + 1} of ${name}`} />
            <span className="hint">{i + 1}</span>
          </li>
        ))}
      </ol>
    </ViewerFrame>
  );
}

async function thumbnails(name: string, blob: Blob, signal: AbortSignal): Promise<Page[]> {
  const render = (pages?: string) => runForView("pdf.render-png", { name, blob }, { dpi: DPI, ...(pages ? { pages } : {}) }, signal);
  // A range past the last page is refused, so a short document is rendered whole instead.
  const outputs = await render(`1-${MAX_PAGES}`).catch((err: unknown) => {
    if (err instanceof ToolError && err.code === "PARAMS_INVALID") return render();
    throw err;
  });
  return outputs.map((o) => ({ name: o.name, url: URL.createObjectURL(outputBlob({ ...o, mime: "image/png" })) }));
}
