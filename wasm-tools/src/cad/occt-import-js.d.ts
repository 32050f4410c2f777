/** Types for occt-import-js 0.0.23 (it ships none): the Emscripten factory and what ReadFile returns. */
declare module "occt-import-js" {
  export interface OcctParams {
    linearUnit?: "millimeter" | "centimeter" | "meter" | "inch" | "foot";
    linearDeflectionType?: "bounding_box_ratio" | "absolute_value";
    linearDeflection?: number;
    angularDeflection?: number;
  }
  export interface OcctNode {
    name: string;
    meshes: number[];
    children: OcctNode[];
  }
  export interface OcctFace {
    /** First and last triangle (inclusive) of this B-rep face. */
    first: number;
    last: number;
    color: [number, number, number] | null;
  }
  export interface OcctMesh {
    name?: string;
    /** Linear RGB. */
    color?: [number, number, number];
    brep_faces?: OcctFace[];
    attributes: { position: { array: ArrayLike<number> }; normal?: { array: ArrayLike<number> } };
    index: { array: ArrayLike<number> };
  }
  export interface OcctResult {
    success: boolean;
    root?: OcctNode;
    meshes?: OcctMesh[];
  }
  export interface Occt {
    ReadFile(format: "step" | "iges" | "brep", content: Uint8Array, params: OcctParams | null): OcctResult;
  }
  const factory: (options?: object) => Promise<Occt>;
  export default factory;
}
