import { performance } from "node:perf_hooks";

/**
 * Sends `send()` at a steady `perSecond` for `durationMs`, whatever the answers (an open loop, as
 * real callers arrive), and returns each call's latency in ms, sorted. autocannon's rate options
 * close the loop instead: each connection sends its second's quota back to back and then idles, so
 * its "70 % load" is full load for most of every second.
 */
export async function openLoop(
  perSecond: number,
  durationMs: number,
  send: () => Promise<void>,
): Promise<number[]> {
  const latencies: number[] = [];
  const calls: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; (i * 1000) / perSecond < durationMs; i++) {
    // Due times from the start, not from the last send: a late timer does not slow the rate down.
    const wait = started + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sentAt = performance.now();
    calls.push(send().then(() => void latencies.push(performance.now() - sentAt)));
  }
  await Promise.all(calls);
  return latencies.sort((a, b) => a - b);
}
