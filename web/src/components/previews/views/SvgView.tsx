/**
 * An SVG (the PCB tools' board and layer drawings) as an image from a blob URL: an <img> runs no
 * script and loads nothing external, unlike SVG put into the page as markup.
 */
import { useEffect, useState } from "react";
import type { ViewerProps } from "../Preview";
import { useLoaded } from "../use-loaded";
import { ViewerFrame } from "./ViewerFrame";

export default function SvgView({ name, read }: ViewerProps) {
  const blob = useLoaded(async () => new Blob([await read()], { type: "image/svg+xml" }));
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
