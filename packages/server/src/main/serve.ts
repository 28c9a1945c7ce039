import type { Lookup } from "../adapters/fetch/resolve-target.ts";
import type { ServeConfig } from "./config.ts";
import { startEmbeddedServer } from "./embedded.ts";
import type { RunningServer } from "./running-server.ts";
import { startScaledServer } from "./scaled.ts";

export type { RunningServer } from "./running-server.ts";

/**
 * The composition root of `pictor serve`: the one place that turns configuration into adapters.
 * Every backend is a case here; adding one without wiring it fails the typecheck.
 */
export async function startServer(
  config: ServeConfig,
  /** Tests only: DNS answers for the API process's outbound guard (webhook checks and deliveries). */
  testHooks: { lookup?: Lookup } = {},
): Promise<RunningServer> {
  const backend = config.backend;
  switch (backend.state) {
    case "sqlite":
      return startEmbeddedServer(config, testHooks);
    case "postgres":
      return startScaledServer(config, backend, testHooks);
    default: {
      const unknown: never = backend;
      throw new Error(`unknown backend ${JSON.stringify(unknown)}`);
    }
  }
}
