import type { ReadinessReport } from "../http/operations.ts";
import type { ReadinessCheck } from "../ports/readiness.ts";

/** A check that has not answered by then counts as failing: a probe must not hang on a dead store. */
const CHECK_TIMEOUT_MS = 2000;
/** Probes within this long of the last answer share it: a busy balancer costs one round of checks. */
const REPORT_REUSE_MS = 1000;

export interface Readiness {
  report(): Promise<ReadinessReport>;
  /** The process was told to stop: not ready from now on, whatever the checks say. */
  drain(): void;
  readonly draining: boolean;
}

export interface ReadinessLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * Whether this process can do its work: each dependency's check (database, object store, render
 * threads) run at once with a timeout, the answer reused for a second. A check that starts or stops
 * failing is logged once with its reason (an unauthenticated probe is only told "failing").
 */
export function createReadiness(
  checks: readonly ReadinessCheck[],
  log: ReadinessLog,
  timeoutMs = CHECK_TIMEOUT_MS,
): Readiness {
  let draining = false;
  let last: { at: number; checks: ReadinessReport["checks"] } | null = null;
  let running: Promise<ReadinessReport["checks"]> | null = null;
  const failing = new Map<string, string>();

  const runChecks = async () => {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), timeoutMs, name);
          if (failing.delete(name)) log.info({ check: name }, `${name} ready again`);
          return [name, "ok"] as const;
        } catch (error) {
          const reason = String((error as Error)?.message ?? error);
          if (failing.get(name) !== reason)
            log.warn({ check: name, reason }, `not ready: ${name}: ${reason}`);
          failing.set(name, reason);
          return [name, "failing"] as const;
        }
      }),
    );
    return Object.fromEntries(results) as ReadinessReport["checks"];
  };

  return {
    async report() {
      const now = performance.now();
      if (!last || now - last.at > REPORT_REUSE_MS) {
        running ??= runChecks().finally(() => {
          running = null;
        });
        last = { at: now, checks: await running };
      }
      const ok = Object.values(last.checks).every((state) => state === "ok");
      return { ready: ok && !draining, draining, checks: last.checks };
    },
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
