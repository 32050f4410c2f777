/** Whether the browser believes it has a network (navigator.onLine, kept current). */
import { useSyncExternalStore } from "react";

function subscribe(notify: () => void): () => void {
  window.addEventListener("online", notify);
  window.addEventListener("offline", notify);
  return () => {
    window.removeEventListener("online", notify);
    window.removeEventListener("offline", notify);
  };
}

export const useOnline = () => useSyncExternalStore(subscribe, () => navigator.onLine);
