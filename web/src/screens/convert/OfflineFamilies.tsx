/** Which tool families run without a network here (each is kept after its first use), in plain words. */
import { familyTitle } from "../../tools/family-titles";
import { useOfflineFamilies } from "../../tools/offline";

export function OfflineFamilies() {
  const { data } = useOfflineFamilies();
  if (!data || data.all.length === 0) return null;
  const offline = new Set(data.offline);
  return (
    <details className="card">
      <summary>{offlineSummary(data.all.filter((f) => offline.has(f)))}</summary>
      <ul aria-label="Families kept offline" className="families">
        {data.all.map((family) => (
          <li key={family}>
            {familyTitle(family)}: {offline.has(family) ? "available offline" : "downloaded the first time you use it"}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** "Works offline: PDF, GIS." or, before any use, how a kind of file comes to work offline. */
export function offlineSummary(offline: string[]): string {
  if (offline.length === 0) return "Works offline after first use: each kind of file you convert here keeps working without internet.";
  return `Works offline: ${offline.map(familyTitle).join(", ")}.`;
}
