/**
 * A GeoJSON of points of any size, written to disk piece by piece (never one string of that
 * size): the big inputs of the memory test (server/test/tool-memory.test.ts) and the big-file
 * bench (bench/tools-big). Bun only.
 */

/** Writes a FeatureCollection of points of about `mb` MB to `path`; answers `path`. */
export async function writePointsGeojson(path: string, mb: number): Promise<string> {
  const writer = Bun.file(path).writer();
  writer.write('{"type":"FeatureCollection","features":[\n');
  for (let i = 0, bytes = 0; bytes < mb * 1024 * 1024; i++) {
    const line = `${i ? ",\n" : ""}{"type":"Feature","properties":{"id":${i},"name":"point ${i}","v":${(i * 37) % 1000}},"geometry":{"type":"Point","coordinates":[${((i * 0.0137) % 360) - 180},${((i * 0.0071) % 160) - 80}]}}`;
    writer.write(line);
    bytes += line.length;
  }
  writer.write("\n]}\n");
  await writer.end();
  return path;
}
