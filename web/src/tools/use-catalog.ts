/** The Convert and Batches screens' tool list: this device's worker's and the server's, merged (catalog.ts). */
import { useQuery } from "@tanstack/react-query";
import { client } from "../api/client";
import { mergeTools, type ToolInfo } from "./catalog";
import { useDeviceTools } from "./device";

export interface Catalog {
  tools: ToolInfo[];
  /** Both lists settled (either way). */
  settled: boolean;
  deviceError: unknown;
}

export function useCatalog(): Catalog {
  const device = useDeviceTools();
  const server = useServerTools();
  return { tools: mergeTools(device.data, server.data), settled: !device.isPending && !server.isPending, deviceError: device.error };
}

/** The server's tools with their titles (public; kept 5 minutes). */
export const useServerTools = () => useQuery({ queryKey: ["server-tools"], queryFn: () => client.tools.lookup(), staleTime: 5 * 60_000, retry: false });
