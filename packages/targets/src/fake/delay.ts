/**
 * Calls `fn` once `ms` have passed by performance.now(), the clock the fake's events are stamped with: a
 * timer alone may fire up to a millisecond early by that clock (libuv counts from the loop's cached time),
 * and an answer stamped 999 ms after a 1,000 ms delay would contradict the delay the job configured.
 */
export function afterAtLeast(ms: number, fn: () => void): { cancel(): void } {
  const end = performance.now() + ms;
  let timer: NodeJS.Timeout;
  const tick = () => {
    const left = end - performance.now();
    if (left > 0) timer = setTimeout(tick, Math.ceil(left));
    else fn();
  };
  timer = setTimeout(tick, ms);
  return { cancel: () => clearTimeout(timer) };
}
