/** The settings service lives in the core (config/service.ts); this name stays for importers not yet moved. */
export { auditRows, ConfigService } from "../../config/service";
