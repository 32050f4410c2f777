/** The time now, ticking every `everyMs` (durations so far, time left); `null` stops the clock. */
import { useEffect, useState } from "react";

export function useNow(everyMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (everyMs === null) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
