/**
 * Previews of results and stored files "where people would rather look than read": a 3D model,
 * a point cloud, a map, PDF page thumbnails, a board SVG, a DWG or DXF drawing, formatted text. Each viewer is its own
 * lazily loaded chunk (three.js and maplibre-gl never weigh on the app shell) that the service
 * worker caches on first use; nothing is fetched from anywhere but this app and its server.
 */
import { lazy, Suspense, useState, type ComponentType } from "react";
import { TextPreview } from "../TextPreview";
import type { PreviewKind } from "./kind";

export interface ViewerProps {
  name: string;
  mime: string;
  /** Reads the file's bytes (a local blob, or the stored file through the API client). */
  read: () => Promise<Blob>;
}

const VIEWERS: Record<PreviewKind, ComponentType<ViewerProps>> = {
  model: lazy(() => import("./views/ModelView")),
  points: lazy(() => import("./views/PointCloudView")),
  map: lazy(() => import("./views/MapView")),
  pdf: lazy(() => import("./views/PdfPages")),
  svg: lazy(() => import("./views/SvgView")),
  drawing: lazy(() => import("./views/SvgView")),
  text: TextPreview,
};

/** The viewer for `kind`, loading its chunk on first use. */
export function PreviewView({ kind, ...file }: ViewerProps & { kind: PreviewKind }) {
  const Viewer = VIEWERS[kind];
  return (
    <Suspense fallback={<p className="hint">Loading the viewer…</p>}>
      <Viewer {...file} />
    </Suspense>
  );
}

/** A collapsed preview under a result: the viewer is loaded and the file read only while it is open. */
export function InlinePreview({ kind, ...file }: ViewerProps & { kind: PreviewKind }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="preview" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Preview {file.name}</summary>
      {open ? <PreviewView kind={kind} {...file} /> : null}
    </details>
  );
}
