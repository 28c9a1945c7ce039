import { hostname } from "node:os";
import { type Logger, pino } from "pino";
import type { ServeConfig } from "./config.ts";
import { logOptions } from "./running-server.ts";

export type ProcessLog = Logger;

/**
 * The one logger of a `pictor serve` process, every role alike: JSON lines on standard error with
 * time, pid, host and role (the API's request lines too, through Fastify). What logOptions redacts
 * is never written.
 */
export function createProcessLog(
  config: Pick<ServeConfig, "logLevel" | "role">,
  stream: NodeJS.WritableStream = process.stderr,
): ProcessLog {
  const { level, redact, serializers } = logOptions(config, stream);
  return pino(
    {
      level,
      redact,
      base: { pid: process.pid, hostname: hostname(), role: config.role },
      serializers: {
        ...serializers,
        res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    stream as pino.DestinationStream,
  );
}
