/**
 * Workflows through the official client: the paged list with each one's last run and triggers,
 * templates, one workflow (save = a new version), the node catalog, validation, the estimate,
 * versions, triggers, the public switches that govern them, runs. Components never call fetch.
 */
import type { PutTriggerBody } from "@vektor/shared/schemas/trigger";
import { isTerminalRun, type RunStatus } from "@vektor/shared/schemas/vocab";
import type { ApprovalFilter, ApproveBody, CreateWorkflowBody, TemplateBody, UpdateWorkflowBody, Workflow, WorkflowPage } from "@vektor/shared/schemas/workflow";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client } from "./client";
import { FILES_KEY } from "./files";

export const WORKFLOWS_KEY = ["workflows"] as const;
const PAGE_SIZE = 20;
/** Most workflows loaded for a search or a picker (pages of 200). */
const ALL_LIMIT = 1000;

/** A page of the caller's workflows, newest first. */
export const useWorkflowsPage = (cursor: string | undefined) =>
  useQuery({ queryKey: [...WORKFLOWS_KEY, "page", cursor ?? ""], queryFn: () => client.workflows.list({ limit: PAGE_SIZE, cursor }), placeholderData: keepPreviousData });

/** Every workflow of the caller (up to 1000): the list has no server-side search, and op.workflow picks from all. */
export const useAllWorkflows = (enabled = true) =>
  useQuery({
    queryKey: [...WORKFLOWS_KEY, "all"],
    enabled,
    queryFn: async () => {
      const out: Workflow[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.workflows.list({ limit: 200, cursor });
        out.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && out.length < ALL_LIMIT);
      return out;
    },
  });

/** The workflow's newest run, or null. */
export const useLastRun = (id: string) =>
  useQuery({ queryKey: [...WORKFLOWS_KEY, id, "last-run"], queryFn: async () => (await client.workflows.runs(id, { limit: 1 })).items[0] ?? null });

export const useTriggers = (id: string) => useQuery({ queryKey: [...WORKFLOWS_KEY, id, "triggers"], queryFn: () => client.workflows.triggers.list(id) });

export const useTemplates = () => useQuery({ queryKey: [...WORKFLOWS_KEY, "templates"], queryFn: () => client.workflows.templates.list(), staleTime: 60_000 });

export function useCreateWorkflow() {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (body: CreateWorkflowBody) => client.workflows.create(body), onSuccess: () => queries.invalidateQueries({ queryKey: WORKFLOWS_KEY }) });
}

/** Deletes; the row leaves the lists at once (its own last-run and trigger queries are dropped, not asked again). */
export function useDeleteWorkflow() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.workflows.delete(id),
    onSuccess: (_, id) => {
      queries.setQueriesData<WorkflowPage>({ queryKey: [...WORKFLOWS_KEY, "page"] }, (p) => p && { ...p, items: p.items.filter((w) => w.id !== id) });
      queries.setQueriesData<Workflow[]>({ queryKey: [...WORKFLOWS_KEY, "all"] }, (list) => list?.filter((w) => w.id !== id));
      queries.removeQueries({ queryKey: [...WORKFLOWS_KEY, id] });
      void queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, "page"] });
      void queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, "all"] });
    },
  });
}

export const workflowKey = (id: string) => [...WORKFLOWS_KEY, id, "detail"] as const;

export const useWorkflow = (id: string) => useQuery({ queryKey: workflowKey(id), queryFn: () => client.workflows.get(id), staleTime: Infinity });

/** Saves a new version; the list, versions and estimate follow. */
export function useSaveWorkflow(id: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateWorkflowBody) => client.workflows.update(id, body),
    onSuccess: (saved) => {
      queries.setQueryData(workflowKey(id), saved);
      void queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, id, "versions"] });
      void queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, "page"] });
      void queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, "all"] });
    },
  });
}

export const useCatalog = () => useQuery({ queryKey: [...WORKFLOWS_KEY, "catalog"], queryFn: () => client.workflows.catalog(), staleTime: Infinity });

/** The server's validation of a graph (POST /api/workflows/validate); pass an already debounced graphJson. */
export const useValidation = (graphJson: string | null) =>
  useQuery({ queryKey: [...WORKFLOWS_KEY, "validate", graphJson], queryFn: () => client.workflows.validate(graphJson!), enabled: graphJson !== null, placeholderData: keepPreviousData, staleTime: Infinity });

/** What a run of the saved version charges (steps may exceed maxSteps: the run is then refused). */
export const useWorkflowEstimate = (id: string, versionId: string | undefined, enabled = true) =>
  useQuery({ queryKey: [...WORKFLOWS_KEY, id, "estimate", versionId], queryFn: () => client.workflows.estimate(id), enabled: enabled && Boolean(versionId), retry: false });

export const useVersions = (id: string, enabled: boolean) => useQuery({ queryKey: [...WORKFLOWS_KEY, id, "versions"], queryFn: () => client.workflows.versions(id), enabled });

/** One version's content (name, graph), read-only. */
export const useVersion = (id: string, versionId: string | null) =>
  useQuery({ queryKey: [...WORKFLOWS_KEY, id, "versions", versionId], queryFn: () => client.workflows.version(id, versionId!), enabled: versionId !== null, staleTime: Infinity });

export function useRestoreVersion(id: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => client.workflows.restore(id, versionId),
    onSuccess: (saved) => {
      queries.setQueryData(workflowKey(id), saved);
      void queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, id, "versions"] });
    },
  });
}

export function useCreateTemplate() {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (body: TemplateBody) => client.workflows.templates.create(body), onSuccess: () => queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, "templates"] }) });
}

/** Creates or replaces a trigger; the answer's secret is shown once. */
export function usePutTrigger(id: string) {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (body: PutTriggerBody) => client.workflows.triggers.put(id, body), onSuccess: () => queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, id, "triggers"] }) });
}

export function useDeleteTrigger(id: string) {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (triggerId: string) => client.workflows.triggers.delete(id, triggerId), onSuccess: () => queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, id, "triggers"] }) });
}

/** The hook's address as a third party calls it. */
export const hookUrl = (id: string) => client.t.url(`/api/workflows/${encodeURIComponent(id)}/hook`);

/** The public switches and thresholds the studio shows (GET /api/config/flags and /thresholds). */
export interface WorkflowSettings {
  flags: Record<string, unknown>;
  baseCredits: number;
  perStepCredits: number;
  maxSteps: number;
}

export const useWorkflowSettings = () =>
  useQuery({
    queryKey: ["config", "workflows"],
    queryFn: async (): Promise<WorkflowSettings> => {
      const [flags, t] = await Promise.all([client.config.flags(), client.config.thresholds(["workflow.base_credits", "workflow.per_step_credits", "workflow.max_steps"])]);
      return { flags, baseCredits: Number(t["workflow.base_credits"] ?? 1), perStepCredits: Number(t["workflow.per_step_credits"] ?? 1), maxSteps: Number(t["workflow.max_steps"] ?? 25) };
    },
    staleTime: 60_000,
  });

/** The caller's recent files (first 200, newest first): run inputs and watch previews. */
export const useRecentFiles = () => useQuery({ queryKey: [...FILES_KEY, "recent"], queryFn: async () => (await client.files.list({ limit: 200 })).items });

export function useStartRun(id: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (fileIds: string[]) => client.workflows.run(id, fileIds),
    onSuccess: () => (void queries.invalidateQueries({ queryKey: [...WORKFLOWS_KEY, id, "last-run"] }), void queries.invalidateQueries({ queryKey: ["account"] })),
  });
}


/* Runs: the caller's runs, one run's detail, steering (retry, replay, cancel), approvals. */

export const RUNS_KEY = [...WORKFLOWS_KEY, "runs"] as const;
const runKey = (runId: string) => [...RUNS_KEY, runId] as const;
export const APPROVALS_KEY = [...WORKFLOWS_KEY, "approvals"] as const;

export interface RunFilter {
  status?: RunStatus;
  workflowId?: string;
}

/** A page of the caller's runs, newest first, filtered by status and workflow. */
export const useAllRunsPage = (filter: RunFilter, cursor: string | undefined) =>
  useQuery({
    queryKey: [...RUNS_KEY, "page", filter.status ?? "", filter.workflowId ?? "", cursor ?? ""],
    queryFn: () => client.workflows.runs.list({ ...filter, limit: PAGE_SIZE, cursor }),
    placeholderData: keepPreviousData,
  });

/** A page of one workflow's runs, newest first (its history in the editor). */
export const useWorkflowRuns = (id: string, cursor: string | undefined) =>
  useQuery({ queryKey: [...WORKFLOWS_KEY, id, "runs", cursor ?? ""], queryFn: () => client.workflows.runs(id, { limit: 10, cursor }), placeholderData: keepPreviousData });

/** A page of the approvals waiting on the caller (or decided), oldest request first. */
export const useApprovalsPage = (status: ApprovalFilter, cursor: string | undefined) =>
  useQuery({ queryKey: [...APPROVALS_KEY, status, cursor ?? ""], queryFn: () => client.workflows.approvals.list({ status, limit: PAGE_SIZE, cursor }), placeholderData: keepPreviousData });

/** How many approvals wait on the caller (the nav's count): up to 100 counted, asked again each minute. */
export const usePendingApprovalCount = (enabled: boolean) =>
  useQuery({
    queryKey: [...APPROVALS_KEY, "count"],
    enabled,
    queryFn: async () => (await client.workflows.approvals.list({ status: "pending", limit: 100 })).items.length,
    refetchInterval: 60_000,
    retry: false,
  });

/** A run's detail. `poll`: asked again every 1.5 s while the run is not finished (when the event stream is not there). */
export const useRunDetail = (runId: string, poll = true) =>
  useQuery({
    queryKey: runKey(runId),
    queryFn: () => client.workflows.runDetail(runId),
    refetchInterval: (q) => (!poll || (q.state.data && isTerminalRun(q.state.data.run.status)) ? false : 1500),
  });

/** A stored file's record (name, size, type) for a step's file links and previews. */
export const useFileRecord = (fileId: string) => useQuery({ queryKey: [...FILES_KEY, "record", fileId], queryFn: () => client.files.get(fileId), staleTime: Infinity, retry: false });

/** After a run changed by steering or a decision: its detail, the lists and the balance are asked again. */
function useRunChanged() {
  const queries = useQueryClient();
  return (runId: string) => {
    void queries.invalidateQueries({ queryKey: runKey(runId) });
    void queries.invalidateQueries({ queryKey: [...RUNS_KEY, "page"] });
    void queries.invalidateQueries({ queryKey: APPROVALS_KEY });
    void queries.invalidateQueries({ queryKey: ["account"] });
  };
}

export function useRetryRun() {
  const changed = useRunChanged();
  return useMutation({ mutationFn: (runId: string) => client.workflows.retry(runId), onSuccess: (_, runId) => changed(runId) });
}

export function useReplayRun() {
  const changed = useRunChanged();
  return useMutation({ mutationFn: (runId: string) => client.workflows.replay(runId), onSuccess: (r) => changed(r.runId) });
}

export function useCancelRun() {
  const changed = useRunChanged();
  return useMutation({ mutationFn: (runId: string) => client.workflows.cancel(runId), onSuccess: (_, runId) => changed(runId) });
}

export function useDecide() {
  const changed = useRunChanged();
  return useMutation({ mutationFn: ({ runId, ...body }: ApproveBody & { runId: string }) => client.workflows.approve(runId, body), onSuccess: (_, v) => changed(v.runId) });
}
