/** The slice of the Khronos glTF validator (npm `gltf-validator`, a test-only dependency) the tests use. */
declare module "gltf-validator" {
  export interface ValidationMessage {
    code: string;
    message: string;
    severity: number;
    pointer?: string;
    offset?: number;
  }
  export interface ValidationReport {
    validatorVersion: string;
    issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidationMessage[]; truncated: boolean };
    info?: { drawCallCount?: number; totalVertexCount?: number; totalTriangleCount?: number; materialCount?: number; hasMaterials?: boolean };
  }
  export interface ValidationOptions {
    uri?: string;
    format?: "glb" | "gltf";
    maxIssues?: number;
    writeTimestamp?: boolean;
    ignoredIssues?: string[];
    severityOverrides?: Record<string, number>;
  }
  export function validateBytes(data: Uint8Array, options?: ValidationOptions): Promise<ValidationReport>;
  export function version(): string;
}
