/** The few parts of three.js (no bundled types) the mesh family uses. */
declare module "three" {
  export class Matrix4 {
    elements: number[];
  }
  export class BufferAttribute {
    count: number;
    itemSize: number;
    array: ArrayLike<number>;
    getX(i: number): number;
    getY(i: number): number;
    getZ(i: number): number;
  }
  export class BufferGeometry {
    index: BufferAttribute | null;
    getAttribute(name: string): BufferAttribute | undefined;
  }
  export class Object3D {
    name: string;
    matrixWorld: Matrix4;
    isMesh?: boolean;
    geometry?: BufferGeometry;
    children: Object3D[];
    updateMatrixWorld(force?: boolean): void;
    traverse(callback: (object: Object3D) => void): void;
  }
}
declare module "three/examples/jsm/loaders/STLLoader.js" {
  import type { BufferGeometry } from "three";
  export class STLLoader {
    parse(data: ArrayBuffer | string): BufferGeometry;
  }
}
declare module "three/examples/jsm/loaders/PLYLoader.js" {
  import type { BufferGeometry } from "three";
  export class PLYLoader {
    parse(data: ArrayBuffer | string): BufferGeometry;
  }
}
declare module "three/examples/jsm/loaders/OBJLoader.js" {
  import type { Object3D } from "three";
  export class OBJLoader {
    parse(text: string): Object3D;
  }
}
declare module "three/examples/jsm/loaders/GLTFLoader.js" {
  import type { Object3D } from "three";
  export class GLTFLoader {
    parseAsync(data: ArrayBuffer | string, path: string): Promise<{ scene: Object3D }>;
  }
}
