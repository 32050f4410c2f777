/**
 * A run's detail kept live: the run's event stream (GET /api/workflows/runs/{runId}/events, an
 * EventSource with the session cookie) patches the cached detail as each step or the run
 * changes, so the page follows without a reload. While the stream is not open (not yet
 * connected, reconnecting with Last-Event-ID, or refused) the detail is polled instead, so the
 * page never stops following; the stream is closed once the run ends.
 */
import { useQueryClient } from "@tanstack/react-query";
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import type { Run, RunDetail, Step } from "@vektor/shared/schemas/workflow";
import { useEffect, useState } from "react";
import { client } from "../../../api/client";
import { APPROVALS_KEY, RUNS_KEY, useRunDetail } from "../../../api/workflows";
import { withStep } from "./run-view";

export type LiveMode = "stream" | "poll";

export function useRunLive(runId: string) {
  const [mode, setMode] = useState<LiveMode>("poll");
  const detail = useRunDetail(runId, mode === "poll");
  const ended = detail.data ? isTerminalRun(detail.data.run.status) : false;
  const queries = useQueryClient();

  useEffect(() => {
    if (ended) return;
    const key = [...RUNS_KEY, runId];
    const source = new EventSource(client.t.url(`/api/workflows/runs/${encodeURIComponent(runId)}/events`), { withCredentials: true });
    const patch = (change: (d: RunDetail) => RunDetail) => queries.setQueryData<RunDetail>(key, (d) => d && change(d));
    source.onopen = () => setMode("stream");
    // An error while connecting or reconnecting: poll until the stream is open again (EventSource
    // retries by itself with Last-Event-ID, unless the server refused it: then it stays closed).
    source.onerror = () => setMode("poll");
    source.addEventListener("step", (e) => patch((d) => withStep(d, JSON.parse((e as MessageEvent<string>).data) as Step)));
    source.addEventListener("run", (e) => {
      const run = JSON.parse((e as MessageEvent<string>).data) as Run;
      patch((d) => ({ ...d, run: { ...d.run, ...run } }));
      // Approvals and deliveries are not in the stream: a run change asks for them once (and the nav's count).
      void queries.invalidateQueries({ queryKey: key });
      void queries.invalidateQueries({ queryKey: APPROVALS_KEY });
      if (isTerminalRun(run.status)) source.close();
    });
    return () => source.close();
  }, [runId, ended, queries]);

  return { detail, mode: ended ? ("poll" as const) : mode };
}
