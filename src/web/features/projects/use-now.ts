import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs` by one timer (cleared on unmount). Relative times of a
 * whole list are computed from it, so a list of any length costs one timer and one render per tick.
 */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
