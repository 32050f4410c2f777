/**
 * `@vektor/client`: the official client of the Vektor HTTP interface. The sources live in
 * `shared/src/client` (the server's tests and the web app import them as
 * `@vektor/shared/client`); this package re-exports them with the schema types they answer.
 */
export * from "@vektor/shared/client";
export type { Account, AuthUser, CreatedToken, LedgerEntry, TokenInfo } from "@vektor/shared/schemas/account";
export type { Batch, BatchDetail, BatchItem, BatchProgress, BatchStatus, Estimate, Preset } from "@vektor/shared/schemas/batch";
export type { AdminConfig, ConfigMap } from "@vektor/shared/schemas/config";
export type { ConfirmResult, FileRecord, PartReceipt } from "@vektor/shared/schemas/file";
export type { Job, JobOutput, JobPage, JobStatus, ToolDetail, ToolIndexEntry } from "@vektor/shared/schemas/job";
export type { Trigger } from "@vektor/shared/schemas/trigger";
export type { Approval, Run, RunDetail, RunStatus, Step, Template, ValidationResult, Workflow } from "@vektor/shared/schemas/workflow";
