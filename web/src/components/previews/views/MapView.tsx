/**
 * GeoJSON, GeoPackage or KML on a map: maplibre-gl with a plain background and the data as
 * fill, line and circle layers, framed to its extent. No tiles, glyphs or sprites are asked
 * for, so it works offline and sends nothing anywhere.
 */
import type { FeatureCollection } from "geojson";
import { Map as MapLibre, setWorkerUrl, type StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import { useEffect, useRef } from "react";
import type { ViewerProps } from "../Preview";
import { useLoaded } from "../use-loaded";
import { boundsOf, toLonLat } from "./geo";
import { ViewerFrame } from "./ViewerFrame";

// maplibre would look for its worker beside its own module, which a bundle does not have.
setWorkerUrl(workerUrl);
// The CSS is this chunk's own stylesheet (not the shell's), linked on first use: a <link>, not an
// inline <style>, which the Content-Security-Policy refuses.

const INK = "#1f5fbf";

const STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#f1f4f8" } }],
};

export default function MapView({ name, read }: ViewerProps) {
  const data = useLoaded(async (signal) => toLonLat(name, await read(), signal));
  const count = data.value?.features.length ?? 0;
  return (
    <ViewerFrame error={data.error} loading={!data.value} hint={`${count.toLocaleString()} feature${count === 1 ? "" : "s"}. Drag to pan, scroll or pinch to zoom.`}>
      {data.value ? <DataMap data={data.value} label={`Map of ${name}`} /> : null}
    </ViewerFrame>
  );
}

function DataMap({ data, label }: { data: FeatureCollection; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bounds = boundsOf(data);
    const map = new MapLibre({ container: host.current!, style: STYLE, attributionControl: false, ...(bounds ? { bounds, fitBoundsOptions: { padding: 24, maxZoom: 18 } } : {}) });
    map.getCanvas().setAttribute("aria-label", label);
    map.on("load", () => {
      map.addSource("data", { type: "geojson", data });
      const polygons = ["match", ["geometry-type"], ["Polygon", "MultiPolygon"], true, false] as const;
      map.addLayer({ id: "fill", type: "fill", source: "data", filter: polygons as never, paint: { "fill-color": INK, "fill-opacity": 0.25 } });
      map.addLayer({ id: "line", type: "line", source: "data", filter: ["!=", ["geometry-type"], "Point"], paint: { "line-color": INK, "line-width": 2 } });
      map.addLayer({ id: "circle", type: "circle", source: "data", filter: ["==", ["geometry-type"], "Point"], paint: { "circle-color": INK, "circle-radius": 5, "circle-stroke-color": "#ffffff", "circle-stroke-width": 1.5 } });
    });
    return () => map.remove();
  }, [data, label]);
  return <div ref={host} className="viewer-canvas" />;
}
