/**
 * A LAS or LAZ point cloud as three.js points, decimated to at most MAX_POINTS. LAZ is first
 * decompressed on this device by the point-cloud tools' own laz-perf (pointcloud.laz-to-las in
 * the tool worker), so the page carries no second LAZ decoder.
 */
import { BufferAttribute, BufferGeometry, Points, PointsMaterial } from "three";
import { outputBytes } from "../../../tools/output-blob";
import type { ViewerProps } from "../Preview";
import { extensionOf } from "../kind";
import { useLoaded } from "../use-loaded";
import { runForView } from "./device-run";
import { readCloud } from "./las";
import { Stage } from "./Stage";
import { ViewerFrame } from "./ViewerFrame";

const MAX_POINTS = 1_500_000;

export default function PointCloudView({ name, mime, read }: ViewerProps) {
  const cloud = useLoaded(async (signal) => {
    const blob = await read();
    const compressed = extensionOf(name) === "laz" || mime === "application/vnd.laszip";
    const las = compressed ? await outputBytes((await runForView("pointcloud.laz-to-las", { name, blob }, {}, signal))[0]!) : new Uint8Array(await blob.arrayBuffer());
    return toPoints(readCloud(las, MAX_POINTS, name));
  });
  const shown = cloud.value?.geometry.getAttribute("position").count ?? 0;
  const total = (cloud.value?.userData.total as number | undefined) ?? 0;
  return (
    <ViewerFrame error={cloud.error} loading={!cloud.value} hint={`${shown.toLocaleString()} of ${total.toLocaleString()} points shown. Drag to orbit, scroll to zoom.`}>
      {cloud.value ? <Stage object={cloud.value} label={`Point cloud of ${name}`} /> : null}
    </ViewerFrame>
  );
}

function toPoints({ positions, colors, total }: ReturnType<typeof readCloud>): Points {
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(positions, 3));
  geometry.setAttribute("color", new BufferAttribute(colors, 3));
  const points = new Points(geometry, new PointsMaterial({ size: positions.length < 600_000 ? 3 : 2, sizeAttenuation: false, vertexColors: true }));
  // LAS is Z-up, three.js Y-up.
  points.rotation.x = -Math.PI / 2;
  points.userData.total = total;
  return points;
}
