/** pointcloud.info from the header, VLRs and EVLRs (no point decoding; on the server only those bytes are read). */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { jsonBytes, output, stem } from "../../runtime/context";
import { payloadOf, withLasFile } from "../las/cloud";
import { describeCrs, isLaszipVlr, parseLaszip } from "../las/vlr";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input]) =>
  withLasFile(input, async (file) => {
    const { header, layout, vlrs, evlrs, head } = file;
    const laszipRecord = vlrs.find(isLaszipVlr);
    const laszip = header.compressed && laszipRecord ? parseLaszip(head, laszipRecord, input.name) : null;
    const crs = describeCrs([...vlrs, ...evlrs], (r) => payloadOf(file, r));
    const report = {
      version: `${header.versionMajor}.${header.versionMinor}`,
      compressed: header.compressed,
      pointFormat: header.pointFormat,
      pointRecordLength: header.recordLength,
      extraBytesPerPoint: header.recordLength - layout.minLength,
      pointCount: header.pointCount,
      pointsByReturn: header.pointsByReturn,
      bounds: { min: header.min, max: header.max },
      scale: header.scale,
      offset: header.offset,
      crs: { present: crs.geoTiffKeys || crs.wkt !== null, geoTiffKeys: crs.geoTiffKeys, wkt: crs.wkt },
      hasRgb: layout.rgb !== undefined,
      hasGpsTime: layout.time !== undefined,
      systemIdentifier: header.systemId,
      generatingSoftware: header.software,
      creation: { day: header.creationDay, year: header.creationYear },
      globalEncoding: header.globalEncoding,
      vlrs: vlrs.map((r) => ({ userId: r.userId, recordId: r.recordId, description: r.description, length: r.end - r.dataStart })),
      evlrs: evlrs.map((r) => ({ userId: r.userId, recordId: r.recordId, description: r.description, length: r.end - r.dataStart })),
      laszip: laszip && { compressor: laszip.compressor, version: laszip.version, chunkSize: laszip.chunkSize },
    };
    return [output(`${stem(input.name)}-info.json`, "json", jsonBytes(report))];
  });
