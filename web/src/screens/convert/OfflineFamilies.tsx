/** Which tool families run without a network here (each is kept after its first use). */
import { familyTitle } from "../../tools/family-titles";
import { useOfflineFamilies } from "../../tools/offline";


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
            {familyTitle(family)}: {offline.has(family) ? "available offline" : "downloaded on first use"}
          </li>
        ))}
      </ul>
    </details>
  );
}
