import type { ServeConfig } from "./config.ts";
import type { RunningServer, ServeTestHooks } from "./running-server.ts";

export type { RunningServer, ServeTestHooks } from "./running-server.ts";

/**
 * The composition root of `pictor serve`: the one place that turns configuration into adapters.
 * Every backend is a case here; adding one without wiring it fails the typecheck.
 */
export async function startServer(
  config: ServeConfig,
  testHooks: ServeTestHooks = {},
): Promise<RunningServer> {
  const backend = config.backend;
  switch (backend.state) {
    // Each backend's modules are loaded only when it is chosen: the scaled mode's S3 SDK, pg and
    // pg-boss cost the embedded process 43 MB of memory it never used.
    case "sqlite":
      return (await import("./embedded.ts")).startEmbeddedServer(config, testHooks);
    case "postgres":
      return (await import("./scaled.ts")).startScaledServer(config, backend, testHooks);
    default: {
      const unknown: never = backend;
      throw new Error(`unknown backend ${JSON.stringify(unknown)}`);
    }
  }
}
