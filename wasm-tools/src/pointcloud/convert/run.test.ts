import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pointcloudFixture } from "../../testing/fixtures";
import { refRead } from "../../testing/las-reference";
import { runTool, text } from "../../testing/run-tool";

/** A binary little-endian PLY's header lines and a view on its body. */
function readPly(bytes: Uint8Array): { header: string[]; body: DataView } {
  const marker = new TextEncoder().encode("end_header\n");
  let end = -1;
  for (let i = 0; i < bytes.length - marker.length && end < 0; i++) {
    if (marker.every((b, k) => bytes[i + k] === b)) end = i + marker.length;
  }
  expect(end).toBeGreaterThan(0);
  const header = new TextDecoder().decode(bytes.subarray(0, end)).trim().split("\n");
  return { header, body: new DataView(bytes.buffer, bytes.byteOffset + end, bytes.length - end) };
}

describe("pointcloud.convert", () => {
  test("PLY: binary little-endian doubles with 8-bit colour", async () => {
    const source = pointcloudFixture("point-color-time.las");
    const [out] = await runTool("pointcloud.convert", [source], { format: "ply" });
    expect(out.name).toBe("point-color-time.ply");
    expect(out.mime).toBe("application/x-ply");
    const { header, body } = readPly(out.bytes);
    expect(header.slice(0, 2)).toEqual(["ply", "format binary_little_endian 1.0"]);
    expect(header).toContain("element vertex 1065");
    expect(header.filter((l) => l.startsWith("property"))).toEqual([
      "property double x",
      "property double y",
      "property double z",
      "property uchar red",
      "property uchar green",
      "property uchar blue",
    ]);
    expect(body.byteLength).toBe(1065 * 27);
    const ref = refRead(source.bytes);
    const refView = new DataView(source.bytes.buffer);
    const maxColour = Math.max(...Array.from({ length: 1065 }, (_, i) => Math.max(...[0, 2, 4].map((k) => refView.getUint16(ref.offsetToPoints + i * 34 + 28 + k, true)))));
    let wrong = 0;
    for (const i of [0, 1, 532, 1064]) {
      const [x, y, z] = ref.xyz(i);
      if (body.getFloat64(i * 27, true) !== x || body.getFloat64(i * 27 + 8, true) !== y || body.getFloat64(i * 27 + 16, true) !== z) wrong++;
      const red = refView.getUint16(ref.offsetToPoints + i * 34 + 28, true);
      if (body.getUint8(i * 27 + 24) !== (maxColour > 255 ? red >> 8 : red)) wrong++;
    }
    expect(wrong).toBe(0);
  });

  test("XYZ: one 'x y z' line per point at the file's precision, no colour when it has none", async () => {
    const source = pointcloudFixture("Haystack_Rock.las");
    const [out] = await runTool("pointcloud.convert", [source], { format: "xyz" });
    expect(out.name).toBe("Haystack_Rock.xyz");
    const lines = text(out).trimEnd().split("\n");
    expect(lines).toHaveLength(21932);
    const ref = refRead(source.bytes);
    const decimals = ref.scale.map((s) => Math.max(0, Math.ceil(-Math.log10(s) - 1e-9)));
    for (const i of [0, 10_000, 21_931]) {
      expect(lines[i]).toBe(ref.xyz(i).map((c, k) => c.toFixed(decimals[k])).join(" "));
    }
  });

  test("CSV from LAZ: header row, attributes, time and colour as stored", async () => {
    const [out] = await runTool("pointcloud.convert", [pointcloudFixture("autzen_trim.laz")], { format: "csv" });
    expect(out.name).toBe("autzen_trim.csv");
    const rows = text(out).trimEnd().split("\n");
    expect(rows[0]).toBe("x,y,z,intensity,return_number,number_of_returns,classification,gps_time,red,green,blue");
    expect(rows).toHaveLength(110_001);
    const reference = pointcloudFixture("autzen_trim.las").bytes;
    const ref = refRead(reference);
    const v = new DataView(reference.buffer);
    for (const i of [0, 54_321, 109_999]) {
      const at = ref.offsetToPoints + i * 34;
      const cells = rows[i + 1].split(",");
      expect(cells.slice(0, 3).map(Number)).toEqual(ref.xyz(i).map((c) => Number(c.toFixed(2))));
      expect(Number(cells[3])).toBe(v.getUint16(at + 12, true));
      expect(Number(cells[4])).toBe(reference[at + 14] & 7);
      expect(Number(cells[6])).toBe(reference[at + 15] & 31);
      expect(Number(cells[7])).toBe(v.getFloat64(at + 20, true));
      expect(cells.slice(8).map(Number)).toEqual([28, 30, 32].map((k) => v.getUint16(at + k, true)));
    }
  });

  test("color: false leaves colour out", async () => {
    const [ply] = await runTool("pointcloud.convert", [pointcloudFixture("point-color-time.las")], { format: "ply", color: false });
    expect(readPly(ply.bytes).header).not.toContain("property uchar red");
    expect(readPly(ply.bytes).body.byteLength).toBe(1065 * 24);
    const [csv] = await runTool("pointcloud.convert", [pointcloudFixture("point-color-time.las")], { format: "csv", color: false });
    expect(text(csv).split("\n")[0]).toBe("x,y,z,intensity,return_number,number_of_returns,classification,gps_time");
  });
});
