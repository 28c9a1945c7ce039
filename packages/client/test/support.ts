import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { runPictor } from "../../server/test/cli/serve-process.ts";

export {
  exited,
  killStillRunning,
  runPictor,
  scratchForPictor,
  spawnServe,
} from "../../server/test/cli/serve-process.ts";

/** A data directory holding one account with `credits`; returns its id and key. */
export async function accountIn(
  dir: string,
  credits: number,
): Promise<{ dir: string; accountId: string; apiKey: string }> {
  const data = mkdtempSync(join(dir, "data-"));
  const run = await runPictor([
    "accounts",
    "create",
    "--name",
    "sdk",
    "--credits",
    String(credits),
    "--json",
    "--data",
    data,
  ]);
  if (run.code !== 0) throw new Error(`accounts create failed: ${run.stderr}`);
  const { account_id, api_key } = JSON.parse(run.stdout) as { account_id: string; api_key: string };
  return { dir: data, accountId: account_id, apiKey: api_key };
}

export const quietEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  PICTOR_LOG_LEVEL: "warn",
  ...extra,
});
