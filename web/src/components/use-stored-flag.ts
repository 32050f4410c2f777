/**
 * A yes/no view preference kept in this browser (localStorage) under `key`, so a reload or the
 * next visit finds it as the person left it. Where storage is refused (a private window, a
 * policy), the flag still works for the page's life.
 */
import { useCallback, useState } from "react";

function read(key: string, fallback: boolean): boolean {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? fallback : stored === "1";
  } catch {
    return fallback;
  }
}

export function useStoredFlag(key: string, fallback: boolean): [boolean, (next: boolean) => void] {
  const [value, setValue] = useState(() => read(key, fallback));
  const set = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        localStorage.setItem(key, next ? "1" : "0");
      } catch {
        // Not kept: the page still follows it.
      }
    },
    [key],
  );
  return [value, set];
}
