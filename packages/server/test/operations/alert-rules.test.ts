import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The shipped Prometheus files (deploy/prometheus/) as promtool reads them: the alert rules and the
// scrape config that loads them. Debian's prometheus package provides promtool (.ci/run installs it).
const PROMTOOL = "/usr/bin/promtool";
const DIR = fileURLToPath(new URL("../../../../deploy/prometheus/", import.meta.url));
const present = existsSync(PROMTOOL);
if (!present && process.env.CI === "true")
  throw new Error("CI=true but promtool (Debian's prometheus) is missing");
if (!present) console.warn("[skipped] alert rules: promtool not installed (apt-get install prometheus)");

const promtool = (args: string[]) =>
  new Promise<{ code: number; output: string }>((resolve) =>
    execFile(PROMTOOL, args, { cwd: DIR }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );

it.skipIf(!present)("promtool accepts the alert rules and the scrape config", async () => {
  const rules = await promtool(["check", "rules", "pictor-alerts.yml"]);
  expect(rules.code, rules.output).toBe(0);
  expect(rules.output).toContain("SUCCESS: 8 rules found");
  const config = await promtool(["check", "config", "prometheus.yml"]);
  expect(config.code, config.output).toBe(0);
});
