/**
 * `npm run soak [-- --seed N] [--duration SECONDS] [--apis N] [--workers N] [--clients N]
 * [--no-hostile]`: the chaos soak of the scaled-out mode (packages/server/test/scale/chaos-soak.ts)
 * for longer than CI runs it: mixed load, a share of it a hostile tenant's heaviest requests (unless
 * --no-hostile), while API and worker processes are SIGKILLed and restarted at random and PostgreSQL
 * is restarted once, then the bank-test checker. Prints the seed first (replay a failure with --seed),
 * the report as JSON last; exits 1 when the checker found a violation.
 */
import { parseArgs } from "node:util";
import { runChaosSoak } from "../packages/server/test/scale/chaos-soak.ts";

const { values } = parseArgs({
  allowNegative: true,
  options: {
    seed: { type: "string" },
    duration: { type: "string", default: "300" },
    apis: { type: "string", default: "2" },
    workers: { type: "string", default: "3" },
    clients: { type: "string", default: "8" },
    hostile: { type: "boolean", default: true },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
console.log(
  `chaos soak seed ${seed} (replay: npm run soak -- --seed ${seed} --duration ${values.duration}${values.hostile ? "" : " --no-hostile"})`,
);
const report = await runChaosSoak({
  seed,
  durationMs: Number(values.duration) * 1000,
  apiProcesses: Number(values.apis),
  workerProcesses: Number(values.workers),
  clients: Number(values.clients),
  hostile: values.hostile,
  log: (line) => console.log(`[${new Date().toISOString()}] ${line}`),
});
console.log(JSON.stringify(report, null, 2));
const hostileRequests = Object.values(report.hostile)
  .flatMap((tally) => Object.values(tally))
  .reduce((a, b) => a + b, 0);
console.log(
  report.violations.length === 0
    ? `PASS: ${report.renders.total} renders (${report.renders.completed} completed, ${report.renders.failed} failed and refunded), ${report.faults.apiKills + report.faults.workerKills} kills, ${report.faults.restarts} restarts, ${report.faults.postgresRestarts} PostgreSQL restart(s), ${hostileRequests} hostile requests; seed ${seed}`
    : `FAIL: ${report.violations.length} violation(s); seed ${seed}`,
);
process.exit(report.violations.length === 0 ? 0 : 1);
