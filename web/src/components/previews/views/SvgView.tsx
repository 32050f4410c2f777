/**
 * An SVG (the PCB tools' board and layer drawings, the drawing tools' output) as an image from a
 * blob URL: an <img> runs no script and loads nothing external, unlike SVG put into the page as
 * markup. A DWG or DXF is drawn as SVG on this device first (drawing.to-svg in the tool worker).
 */
import { useEffect, useState } from "react";
import { outputBlob } from "../../../tools/output-blob";
import { extensionOf } from "../kind";
import type { ViewerProps } from "../Preview";
import { useLoaded } from "../use-loaded";
import { runForView } from "./device-run";
import { ViewerFrame } from "./ViewerFrame";

async function svgOf(name: string, blob: Blob, signal: AbortSignal): Promise<Blob> {
  if (!["dwg", "dxf"].includes(extensionOf(name)) && !/dwg|dxf/.test(blob.type)) return new Blob([blob], { type: "image/svg+xml" });
  const [out] = await runForView("drawing.to-svg", { name, blob }, {}, signal);
  return outputBlob({ ...out!, mime: "image/svg+xml" });
}

export default function SvgView({ name, read }: ViewerProps) {
  const blob = useLoaded(async (signal) => svgOf(name, await read(), signal));
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob.value) return;
    const href = URL.createObjectURL(blob.value);
    setUrl(href);
    return () => URL.revokeObjectURL(href);
  }, [blob.value]);
  return (
    <ViewerFrame error={blob.error} loading={!url}>
      <img className="svg-view" src={url} alt={`Drawing of ${name}`} />
    </ViewerFrame>
  );
}
