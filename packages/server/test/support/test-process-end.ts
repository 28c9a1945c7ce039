import { writeSync } from "node:fs";
import { afterAll, expect } from "vitest";

/**
 * Set up before every server test file (vitest.config.ts): a test process that ends before its file
 * has finished says how on stderr. Vitest reports only "Worker exited unexpectedly" and which file
 * did not report; whether the process exited with a code (vitest's own worker exits with 1 when its
 * channel to the runner breaks), was ended by a signal that can be caught, or by one that cannot
 * (SIGKILL: then no line at all, and no crash message either) tells where to look.
 */
const file = expect.getState().testPath ?? "(unknown test file)";
let finished = false;
afterAll(() => {
  finished = true;
});
const say = (how: string) => {
  if (!finished) writeSync(2, `[test process ${process.pid}] ${file}: ${how} before its tests finished\n`);
};
process.on("exit", (code) => say(`exit code ${code}`));
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.once(signal, () => {
    say(signal);
    // Ends as the signal would have without this listener (unless the test listens for it itself).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}
