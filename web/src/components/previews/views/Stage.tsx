/**
 * A three.js stage shared by the 3D and point-cloud viewers: the object lit and framed by its
 * bounding sphere, orbit/zoom/pan with the mouse, touch or keyboard (OrbitControls), drawn only
 * when the view changes or the box is resized.
 */
import { Box3, Color, DirectionalLight, HemisphereLight, Object3D, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer, type Material, type Mesh } from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { useEffect, useRef } from "react";

const BACKGROUND = 0xf1f4f8;

/** The canvas box of a three.js viewer. */
export function Stage({ object, label }: { object: Object3D; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => mountStage(host.current!, object, label), [object, label]);
  return <div ref={host} className="viewer-canvas" />;
}

/** Puts `object` on a canvas inside `host`; returns the teardown. */
function mountStage(host: HTMLElement, object: Object3D, label: string): () => void {
  const renderer = new WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  const canvas = renderer.domElement;
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", label);

  const scene = new Scene();
  scene.background = new Color(BACKGROUND);
  scene.add(new HemisphereLight(0xffffff, 0x8090a0, 2.2));
  const sun = new DirectionalLight(0xffffff, 1.8);
  sun.position.set(1, 2, 1.5);
  scene.add(sun, object);

  const box = new Box3().setFromObject(object);
  const center = box.isEmpty() ? new Vector3() : box.getCenter(new Vector3());
  const radius = box.isEmpty() ? 1 : box.getBoundingSphere(new Sphere()).radius || 1;
  const camera = new PerspectiveCamera(45, 1, radius / 1000, radius * 100);
  camera.position.copy(center).add(new Vector3(1, 0.7, 1).normalize().multiplyScalar(radius * 2.4));

  const controls = new OrbitControls(camera, canvas);
  controls.target.copy(center);
  controls.listenToKeyEvents(canvas);
  controls.update();
  const draw = () => renderer.render(scene, camera);
  controls.addEventListener("change", draw);

  const resize = () => {
    const width = host.clientWidth || 300;
    const height = host.clientHeight || 300;
    renderer.setSize(width, height);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    draw();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(host);
  host.append(canvas);
  resize();

  return () => {
    observer.disconnect();
    controls.dispose();
    object.traverse((node) => disposeNode(node as Mesh));
    renderer.dispose();
    canvas.remove();
  };
}

function disposeNode(node: Mesh): void {
  node.geometry?.dispose();
  const materials: Material[] = node.material ? ([] as Material[]).concat(node.material) : [];
  for (const m of materials) m.dispose();
}
