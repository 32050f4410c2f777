/** A GLB (glTF binary) from the CAD and BIM tools, orbited and zoomed in a three.js view. */
import type { Object3D } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import type { ViewerProps } from "../Preview";
import { useLoaded } from "../use-loaded";
import { Stage } from "./Stage";
import { ViewerFrame } from "./ViewerFrame";

export default function ModelView({ name, read }: ViewerProps) {
  const model = useLoaded(async () => parseGlb(await (await read()).arrayBuffer()));
  return (
    <ViewerFrame error={model.error} loading={!model.value} hint="Drag to orbit, scroll or pinch to zoom, right-drag or arrow keys to pan.">
      {model.value ? <Stage object={model.value} label={`3D view of ${name}`} /> : null}
    </ViewerFrame>
  );
}

function parseGlb(bytes: ArrayBuffer): Promise<Object3D> {
  return new Promise((resolve, reject) => new GLTFLoader().parse(bytes, "", (gltf) => resolve(gltf.scene), (err) => reject(new Error(`Not a readable GLB: ${err.message}`))));
}
