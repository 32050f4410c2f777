/** The public settings the app acts on (contract section 3): where tools may run. */
import { useQuery } from "@tanstack/react-query";
import { client } from "./client";

export interface ProcessingConfig {
  /** Largest file run in the browser, in bytes. */
  browserMaxBytes: number;
  /** Whether the server runs tools at all. */
  cloudEnabled: boolean;
  /** Whether these values came from the server (false: the contract's defaults, e.g. offline). */
  known: boolean;
}

const MB = 1024 * 1024;
/** The contract's defaults, used until the server answers (or when it cannot). */
const DEFAULTS: ProcessingConfig = { browserMaxBytes: 512 * MB, cloudEnabled: true, known: false };

export function useProcessingConfig(): ProcessingConfig {
  const { data } = useQuery({
    queryKey: ["config", "processing"],
    queryFn: async (): Promise<ProcessingConfig> => {
      const [thresholds, flags] = await Promise.all([client.config.thresholds(["processing.browser_max_mb"]), client.config.flags(["processing.cloud_enabled"])]);
      return { browserMaxBytes: Number(thresholds["processing.browser_max_mb"] ?? 512) * MB, cloudEnabled: flags["processing.cloud_enabled"] !== false, known: true };
    },
    staleTime: 60_000,
    retry: false,
  });
  return data ?? DEFAULTS;
}
