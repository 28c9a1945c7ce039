import type { Command } from "commander";
import { prepareEditor } from "../http/static-editor.ts";
import { ConfigError, readServeConfig } from "../main/config.ts";
import { describePlan } from "../main/memory-plan.ts";
import { startServer } from "../main/serve.ts";
import { EXIT_USAGE, UsageError } from "./usage-error.ts";

/**
 * Failures of the listen call itself (and of the lookup of --host before it), by syscall and code;
 * anything else (EACCES from the data directory, say) is another story.
 */
const LISTEN_PROBLEMS: Record<string, string> = {
  "listen EADDRINUSE": "port is already in use",
  "listen EACCES": "port needs privileges this user does not have",
  "listen EADDRNOTAVAIL": "address is not an address of this machine",
  "getaddrinfo ENOTFOUND": "address is not a name this machine can resolve",
  "getaddrinfo EAI_AGAIN": "address is not a name this machine can resolve",
};

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description(
      "Run Pictor: the HTTP API and render workers on the embedded default (SQLite, files), or, with DATABASE_URL, one role of a scaled-out deployment (PostgreSQL, pg-boss, S3)",
    )
    .option(
      "--role <role>",
      "api (HTTP, enqueues), worker (renders, callbacks) or all (PICTOR_ROLE; default all)",
    )
    .option("--port <n>", "port to listen on (PICTOR_PORT; default 8080, 0 = any free port)")
    .option("--host <addr>", "address to bind (PICTOR_HOST; default 127.0.0.1)")
    .option("--data <dir>", "data directory (PICTOR_DATA_DIR; default ./data)")
    .option("--workers <n>", "render threads of this process (PICTOR_WORKERS; default one per core)")
    .option(
      "--memory-budget <MiB>",
      "memory this process may use, e.g. 1024 or 1G: render threads are started only as many as fit (PICTOR_MEMORY_BUDGET; default 3/4 of the machine's)",
    )
    .option("--public-url <url>", "base URL used in links (PICTOR_PUBLIC_URL)")
    .option("--examples <dir>", "starter templates for new accounts (default examples/templates)")
    .action(async (flags) => {
      let config: ReturnType<typeof readServeConfig>;
      try {
        config = readServeConfig(flags, process.env);
      } catch (error) {
        if (error instanceof ConfigError) throw new UsageError(error.message);
        throw error;
      }
      // The editor is built here, before listening, when its bundle is missing or stale; never on a
      // request. A process that cannot write it says so and serves the API without it.
      if (config.role !== "worker") await prepareEditor((line) => process.stderr.write(`${line}\n`));
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer(config);
      } catch (error) {
        const { code, syscall } = error as NodeJS.ErrnoException;
        const problem = LISTEN_PROBLEMS[`${syscall} ${code}`];
        if (!problem) throw error;
        process.stderr.write(
          `pictor: cannot listen on ${config.host}:${config.port}: the ${problem}. ` +
            "Choose another with --port <n> (npm start -- --port 8081) or PICTOR_PORT, and --host or PICTOR_HOST.\n",
        );
        // The render threads started already would keep the process alive.
        process.exit(EXIT_USAGE);
      }
      // Listening before the banner is printed: whoever reads it may stop the server at once, and a
      // SIGTERM with no listener kills the process without the graceful close.
      const stopped = new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          process.off("SIGTERM", stop);
          process.off("SIGINT", stop);
          const started = performance.now();
          // Readiness turns 503 at once; connections are still taken for the drain delay, so a load
          // balancer sees the 503 and takes this process out before it refuses anything.
          server.drain();
          server.log.info({ signal, drain_delay_s: config.drainDelaySeconds }, "stopping");
          setTimeout(() => {
            server.close().then(
              () => {
                server.log.info({ duration_ms: Math.round(performance.now() - started) }, "stopped");
                resolve();
              },
              (error) => {
                server.log.error({ err: error }, "shutdown failed");
                process.exitCode = 1;
                resolve();
              },
            );
          }, config.drainDelaySeconds * 1000);
        };
        process.on("SIGTERM", stop);
        process.on("SIGINT", stop);
      });
      // The key goes to stdout once, as plain text for a person; logs (JSON, stderr) never carry it.
      let banner = server.url
        ? `Pictor API listening on ${server.url}${config.role === "all" ? "" : ` (role ${config.role})`}\n` +
          `Editor: ${server.url}/  API reference: ${server.url}/docs\n` +
          (config.role === "all" ? `Rendering with ${describePlan(config.memory)}\n` : "")
        : `Pictor render worker started (${describePlan(config.memory)})\n`;
      if (server.firstStart) {
        banner +=
          `Trial account ${server.firstStart.accountId} created with 30 credits and ${starterCount(server.firstStart.starterTemplates)}.\n` +
          `API key (shown only now, store it): ${server.firstStart.apiKey}\n` +
          `Try: curl -s ${server.url}/v1/templates -H "Authorization: Bearer ${server.firstStart.apiKey}"\n`;
      }
      // One write, so whoever reads the first line also has the key.
      process.stdout.write(banner);
      await stopped;
    });
}

/** How the banner counts the starters the trial account received (an empty --examples gives none). */
function starterCount(n: number): string {
  if (n === 0) return "no starter templates (the examples directory has none)";
  return n === 1 ? "1 starter template" : `${n} starter templates`;
}
