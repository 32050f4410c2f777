/** Which tool families run without a network here (each is kept after its first use). */
import { useOfflineFamilies } from "../../tools/offline";

const TITLES: Record<string, string> = { pdf: "PDF", cad: "CAD", gis: "GIS", pointcloud: "Point clouds", pcb: "PCB", bim: "BIM", media: "Media", drawing: "Drawings (DWG, DXF)", mesh: "Meshes" };

export function OfflineFamilies() {
  const { data } = useOfflineFamilies();
  if (!data || data.all.length === 0) return null;
  const offline = new Set(data.offline);
  return (
    <details className="card">
      <summary>
        Available offline: {offline.size} of {data.all.length} tool families
      </summary>
      <ul aria-label="Families kept offline" className="families">
        {data.all.map((family) => (
          <li key={family}>
            {TITLES[family] ?? family}: {offline.has(family) ? "available offline" : "downloaded on first use"}
          </li>
        ))}
      </ul>
    </details>
  );
}
