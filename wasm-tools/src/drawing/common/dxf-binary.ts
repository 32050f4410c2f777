/**
 * Binary DXF -> the ASCII group/value lines dxf-parser reads. The binary form is the same group
 * stream with each value stored by its group code's type (ezdxf's and the DXF reference's table):
 * R13 and later write 2-byte codes, R12 one byte (255 escapes a 2-byte code).
 */
import { ToolError } from "@vektor/shared/tools/manifest";

export const BINARY_DXF_SENTINEL = "AutoCAD Binary DXF\r\n\x1a\0";

type Kind = "string" | "double" | "int16" | "int32" | "int64" | "bool" | "bytes";

const RANGES: [from: number, to: number, kind: Kind][] = [
  [10, 59, "double"], [60, 79, "int16"], [90, 99, "int32"], [110, 149, "double"], [160, 169, "int64"], [170, 179, "int16"],
  [210, 239, "double"], [270, 289, "int16"], [290, 299, "bool"], [310, 319, "bytes"], [370, 389, "int16"], [400, 409, "int16"],
  [420, 429, "int32"], [440, 459, "int32"], [460, 469, "double"], [1004, 1004, "bytes"], [1010, 1059, "double"],
  [1060, 1070, "int16"], [1071, 1071, "int32"],
];

function kindOf(code: number): Kind {
  for (const [from, to, kind] of RANGES) if (code >= from && code <= to) return kind;
  return "string";
}

export function isBinaryDxf(bytes: Uint8Array): boolean {
  return new TextDecoder("latin1").decode(bytes.subarray(0, BINARY_DXF_SENTINEL.length)) === BINARY_DXF_SENTINEL;
}

/** The ASCII DXF text of a binary DXF; INPUT_INVALID when it ends inside a value. */
export function binaryDxfToText(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const latin1 = new TextDecoder("latin1");
  let at = BINARY_DXF_SENTINEL.length;
  // R13+: the first group code (0) takes two bytes, so the byte after it is 0 as well.
  const wide = bytes[at + 1] === 0;
  const lines: string[] = [];
  const need = (n: number) => {
    if (at + n > bytes.length) throw new ToolError("INPUT_INVALID", `The binary DXF is truncated at byte ${at} of ${bytes.length}`);
  };
  while (at < bytes.length) {
    let code: number;
    if (wide) {
      need(2);
      code = view.getInt16(at, true);
      at += 2;
    } else {
      need(1);
      code = bytes[at++];
      if (code === 255) {
        need(2);
        code = view.getInt16(at, true);
        at += 2;
      }
    }
    let value: string;
    switch (kindOf(code)) {
      case "double":
        need(8);
        value = String(view.getFloat64(at, true));
        at += 8;
        break;
      case "int16":
        need(2);
        value = String(view.getInt16(at, true));
        at += 2;
        break;
      case "int32":
        need(4);
        value = String(view.getInt32(at, true));
        at += 4;
        break;
      case "int64":
        need(8);
        value = String(view.getBigInt64(at, true));
        at += 8;
        break;
      case "bool":
        need(1);
        value = String(bytes[at++]);
        break;
      case "bytes": {
        need(1);
        const length = bytes[at++];
        need(length);
        value = Array.from(bytes.subarray(at, at + length), (b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
        at += length;
        break;
      }
      default: {
        const end = bytes.indexOf(0, at);
        if (end < 0) throw new ToolError("INPUT_INVALID", `The binary DXF is truncated inside a text value at byte ${at}`);
        value = latin1.decode(bytes.subarray(at, end));
        at = end + 1;
      }
    }
    lines.push(String(code), value);
    if (code === 0 && value === "EOF") break;
  }
  return `${lines.join("\n")}\n`;
}
