/**
 * A large IFC4 model written straight to disk in STEP text, for the big-file bench and tests: one site,
 * building and storey with walls in a grid, each wall as an authoring tool exports it (its own
 * placement, a rectangle profile extruded to a solid, a body representation, a Pset_WallCommon
 * with two properties), contained in the storey a thousand walls per relation. About 1.1 KB a
 * wall; nothing is held in memory beyond a batch of walls' text.
 */
import { closeSync, openSync, writeSync } from "node:fs";

/** The 64 characters of IFC's compressed GUIDs. */
const GUID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$";

/** A distinct 22-character IfcGloballyUniqueId for `n` (deterministic: the same file on every run). */
function guid(n: number): string {
  let out = "";
  for (let v = n; out.length < 10; v = Math.floor(v / 64)) out = GUID_CHARS[v % 64] + out;
  return `3Vk${"0".repeat(9)}${out}`.slice(-22);
}

const HEADER = `ISO-10303-21;
HEADER;
FILE_DESCRIPTION(('ViewDefinition [ReferenceView_V1.2]'),'2;1');
FILE_NAME('walls.ifc','2026-01-01T00:00:00',('vektor bench'),('vektor'),'vektor bench','vektor bench','');
FILE_SCHEMA(('IFC4'));
ENDSEC;
DATA;
#1=IFCPERSON($,'Bench',$,$,$,$,$,$);
#2=IFCORGANIZATION($,'Vektor',$,$,$);
#3=IFCPERSONANDORGANIZATION(#1,#2,$);
#4=IFCAPPLICATION(#2,'1.0','vektor bench','bench');
#5=IFCOWNERHISTORY(#3,#4,$,.NOCHANGE.,$,$,$,0);
#6=IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.);
#7=IFCSIUNIT(*,.AREAUNIT.,$,.SQUARE_METRE.);
#8=IFCSIUNIT(*,.VOLUMEUNIT.,$,.CUBIC_METRE.);
#9=IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.);
#10=IFCUNITASSIGNMENT((#6,#7,#8,#9));
#11=IFCCARTESIANPOINT((0.,0.,0.));
#12=IFCDIRECTION((0.,0.,1.));
#13=IFCDIRECTION((1.,0.,0.));
#14=IFCAXIS2PLACEMENT3D(#11,#12,#13);
#15=IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#14,$);
#16=IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,#15,$,.MODEL_VIEW.,$);
#17=IFCPROJECT('${guid(1)}',#5,'Bench project',$,$,$,$,(#15),#10);
#18=IFCLOCALPLACEMENT($,#14);
#19=IFCSITE('${guid(2)}',#5,'Site',$,$,#18,$,$,.ELEMENT.,$,$,$,$,$);
#20=IFCLOCALPLACEMENT(#18,#14);
#21=IFCBUILDING('${guid(3)}',#5,'Building',$,$,#20,$,$,.ELEMENT.,$,$,$);
#22=IFCLOCALPLACEMENT(#20,#14);
#23=IFCBUILDINGSTOREY('${guid(4)}',#5,'Level 1',$,$,#22,$,$,.ELEMENT.,0.);
#24=IFCRELAGGREGATES('${guid(5)}',#5,$,$,#17,(#19));
#25=IFCRELAGGREGATES('${guid(6)}',#5,$,$,#19,(#21));
#26=IFCRELAGGREGATES('${guid(7)}',#5,$,$,#21,(#23));
`;
const FIRST_ID = 100;
const IDS_PER_WALL = 14;
const WALLS_PER_RELATION = 1000;

/** Wall `k`'s entities (ids from `id`): 5 m long, 0.2 m thick, 3 m high, on a 6 m grid. */
function wall(k: number, id: number): string {
  const [x, y] = [(k % 500) * 6, Math.floor(k / 500) * 2];
  const e = (i: number) => `#${id + i}`;
  return `${e(0)}=IFCCARTESIANPOINT((${x}.,${y}.,0.));
${e(1)}=IFCAXIS2PLACEMENT3D(${e(0)},$,$);
${e(2)}=IFCLOCALPLACEMENT(#22,${e(1)});
${e(3)}=IFCCARTESIANPOINT((2.5,0.1));
${e(4)}=IFCAXIS2PLACEMENT2D(${e(3)},$);
${e(5)}=IFCRECTANGLEPROFILEDEF(.AREA.,$,${e(4)},5.,0.2);
${e(6)}=IFCEXTRUDEDAREASOLID(${e(5)},#14,#12,3.);
${e(7)}=IFCSHAPEREPRESENTATION(#16,'Body','SweptSolid',(${e(6)}));
${e(8)}=IFCPRODUCTDEFINITIONSHAPE($,$,(${e(7)}));
${e(9)}=IFCWALL('${guid(100 + 2 * k)}',#5,'Wall ${k + 1}','Basic Wall: Generic - 200mm',$,${e(2)},${e(8)},'W-${k + 1}',.STANDARD.);
${e(10)}=IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.${k % 4 === 0 ? "T" : "F"}.),$);
${e(11)}=IFCPROPERTYSINGLEVALUE('LoadBearing',$,IFCBOOLEAN(.${k % 2 === 0 ? "T" : "F"}.),$);
${e(12)}=IFCPROPERTYSET('${guid(101 + 2 * k)}',#5,'Pset_WallCommon',$,(${e(10)},${e(11)}));
${e(13)}=IFCRELDEFINESBYPROPERTIES('${guid(100_000_000 + k)}',#5,$,$,(${e(9)}),${e(12)});
`;
}

/** Writes an IFC4 model of about `mb` MB of walls to `path`; answers the number of walls. */
export function writeWallsIfc(path: string, mb: number): number {
  const walls = Math.max(1, Math.round((mb * 2 ** 20 - HEADER.length) / wall(0, 1_000_000).length));
  const fd = openSync(path, "w");
  const put = (text: string) => {
    const bytes = Buffer.from(text, "latin1");
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
  };
  try {
    put(HEADER);
    let id = FIRST_ID;
    for (let from = 0; from < walls; from += WALLS_PER_RELATION) {
      const batch: string[] = [];
      const ids: string[] = [];
      for (let k = from; k < Math.min(walls, from + WALLS_PER_RELATION); k++, id += IDS_PER_WALL) {
        batch.push(wall(k, id));
        ids.push(`#${id + 9}`);
      }
      batch.push(`#${id++}=IFCRELCONTAINEDINSPATIALSTRUCTURE('${guid(200_000_000 + from)}',#5,$,$,(${ids.join(",")}),#23);\n`);
      put(batch.join(""));
    }
    put("ENDSEC;\nEND-ISO-10303-21;\n");
  } finally {
    closeSync(fd);
  }
  return walls;
}
