import type { RenderWorkerData } from "../adapters/queue/render-messages.ts";
import type { WorkerPool } from "../adapters/queue/worker-pool.ts";
import type { AppDepsInput } from "../http/app-types.ts";
import type { RenderJobDeps } from "../jobs/render-job.ts";
import type { IdempotencyStore } from "../ports/idempotency-store.ts";
import type { ImageUrlStore } from "../ports/image-url-store.ts";
import type { BacklogStats, EndedRenders } from "../ports/metrics.ts";
import type { ReadinessCheck } from "../ports/readiness.ts";
import type { FinishedRender, RenderDispatcher } from "../ports/render-dispatcher.ts";

/** The state a serving process reads and writes, whichever backend holds it. */
export type ServeState = Pick<
  AppDepsInput,
  | "accounts"
  | "templates"
  | "renders"
  | "assets"
  | "assetLibrary"
  | "ledger"
  | "blobs"
  | "starters"
  | "clock"
  | "signingSecret"
  | "outputLinks"
  | "webhooks"
  | "webhookSecrets"
  | "batches"
> & { idempotency: IdempotencyStore; imageUrls: ImageUrlStore };

/** What the serve root hands a backend to run renders with. */
export interface RenderingInput {
  /** This process's render threads; null for a process that serves the API only. */
  pool: WorkerPool | null;
  /** Runs one accepted render to its end (jobs/render-job.ts), on this process's threads. */
  job: RenderJobDeps;
  /** Told of every render this process ended (a callback to send now rather than at the next poll). */
  onEnded(ended: FinishedRender | null): void;
}

/** How accepted renders reach render threads on this backend. */
export interface Rendering {
  /** Where the API submits renders (RenderService); null for a process that serves no API. */
  dispatcher: RenderDispatcher | null;
  /**
   * Starts taking renders to draw, once the process listens (callback links need its address): the
   * renders left pending by a previous process too. Resolves with how many of those it found.
   */
  start(): Promise<number>;
  /** Stops taking renders; the ones in flight finish (their waiters get an answer). */
  stop(): Promise<void>;
}

/**
 * One backend as `pictor serve` runs it: SQLite with files and an in-process queue (serve-sqlite.ts),
 * or PostgreSQL with pg-boss and S3 or a shared directory (serve-postgres.ts). The root (serve.ts)
 * runs every role from it.
 */
export interface ServeBackend {
  /** For people: `SQLite ./data/pictor.db`, `PostgreSQL db:5432/pictor`. */
  description: string;
  state: ServeState;
  /** Whether this process serves the HTTP API and whether it renders. */
  serves: boolean;
  renders: boolean;
  /**
   * `trial`: a first start on an empty store creates the trial account and prints its key once (the
   * embedded newcomer's path). `operator`: nothing is created; the operator makes the first account
   * with `pictor accounts create`, so no key ever reaches a process's output (a journal, container logs).
   */
  firstAccount: "trial" | "operator";
  /** What this process needs reachable to be ready: its database and its object store. */
  readinessChecks: ReadinessCheck[];
  /** The queue and the callback outbox as the metrics count them. */
  backlog: BacklogStats;
  /** Recent render outcomes, for the operator's page (/admin). */
  endedRenders: EndedRenders;
  /** Faults meaning a backing store is briefly unreachable: 503 with Retry-After, not 500. */
  isUnavailable(error: unknown): boolean;
  /** Where a render thread finds asset rows and blobs. */
  renderThreads: Pick<RenderWorkerData, "databaseFile" | "postgresUrl" | "blobRoot" | "s3">;
  /** How often the callback deliverer looks for due events of other processes. */
  deliveryPollMs: number;
  startRendering(input: RenderingInput): Promise<Rendering>;
  /** Closes the connections; after the root stopped everything else. */
  close(): Promise<void>;
}
