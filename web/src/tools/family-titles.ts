/** Tool families in words, for the pages that name them (offline list, engine downloads). */
export const FAMILY_TITLES: Record<string, string> = {
  pdf: "PDF",
  cad: "CAD",
  gis: "GIS",
  pointcloud: "Point clouds",
  pcb: "PCB",
  bim: "BIM",
  media: "Media",
  drawing: "Drawings (DWG, DXF)",
  mesh: "Meshes",
};

export const familyTitle = (family: string) => FAMILY_TITLES[family] ?? family;
