/**
 * Convert opened from Files ("Run a tool on these"): the route's `?files=` names stored files,
 * whose bytes are fetched and chosen as if picked here. They stay known as those stored files,
 * so a server run does not upload them again (api/files.ts storeFile).
 */
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { errorMessage } from "../../api/client";
import { fetchStored } from "../../api/files";
import { storedIdsOf } from "./convert-search";

/** Loads the files the address names, hands them to `choose`, then drops them from the address. */
export function useStoredInputs(choose: (files: File[]) => void): { loading: number; error: string } {
  const { files } = useSearch({ from: "/" });
  const navigate = useNavigate();
  const [state, setState] = useState({ loading: 0, error: "" });
  useEffect(() => {
    const ids = storedIdsOf(files);
    if (ids.length === 0) return;
    const controller = new AbortController();
    setState({ loading: ids.length, error: "" });
    Promise.all(ids.map((id) => fetchStored(id, controller.signal)))
      .then((list) => {
        choose(list);
        setState({ loading: 0, error: "" });
        void navigate({ to: "/", search: {}, replace: true });
      })
      .catch((err) => controller.signal.aborted || setState({ loading: 0, error: `Your files could not be fetched: ${errorMessage(err)}` }));
    return () => controller.abort();
  }, [files, choose, navigate]);
  return state;
}
