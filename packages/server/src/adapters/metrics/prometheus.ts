import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { BacklogStats, OperationsMetrics, RenderPhases } from "../../ports/metrics.ts";

/** HTTP latencies: from a cached file (1 ms) to a wait-mode render (the 60 s wait). */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Render times: a small PNG (10 ms) to a long PDF or a backlog's queue wait (minutes). */
const RENDER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** A scrape never waits longer than this for the database to count the backlog. */
const BACKLOG_TIMEOUT_MS = 2000;
/**
 * Scrapes within this long of a count are answered from it: /metrics is unauthenticated by default,
 * so a client scraping in a loop must not turn into a loop of queries on the database.
 */
export const BACKLOG_MAX_AGE_MS = 1000;

export interface PrometheusMetricsOptions {
  /** `api`, `worker` or `all`: written into `pictor_info` (the scrape target says which process). */
  role: string;
  version: string;
  /** What the queue and the outbox hold; read on each scrape. Absent: those gauges are left out. */
  backlog?: BacklogStats;
  /** Render threads of this process and how many draw now; absent for a process without any. */
  renderThreads?: () => { size: number; busy: number };
  /** Whether the process is ready (what /readyz answers), for an alert on it. */
  ready?: () => Promise<boolean>;
  /** Monotonic milliseconds, for the backlog count's age; default performance.now. */
  now?: () => number;
}

export interface PrometheusMetrics extends OperationsMetrics {
  /** One answered HTTP request; `route` is the route's pattern (`/v1/renders/:id`), never the URL. */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** The exposition in Prometheus' text format, and its content type. */
  expose(): Promise<{ contentType: string; body: string }>;
}

/**
 * The metrics port on prom-client: one registry per process (not the library's global one, so tests
 * can run several servers in one process), with Node's own metrics (memory, CPU, event-loop lag,
 * GC) beside Pictor's.
 */
export function createPrometheusMetrics(options: PrometheusMetricsOptions): PrometheusMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which promtool's lint refuses; their per-type breakdowns stay
  // (nodejs_active_handles{type}, nodejs_active_requests{type}, nodejs_active_resources{type}).
  for (const name of [
    "nodejs_active_handles_total",
    "nodejs_active_requests_total",
    "nodejs_active_resources_total",
  ]) {
    registry.removeSingleMetric(name);
  }
  const info = new Gauge({
    name: "pictor_info",
    help: "This process: its role and version (always 1).",
    labelNames: ["role", "version"],
    registers: [registry],
  });
  info.labels(options.role, options.version).set(1);

  const http = new Histogram({
    name: "pictor_http_request_duration_seconds",
    help: "HTTP requests answered, by method, route pattern and status, with their latency.",
    labelNames: ["method", "route", "status"],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const accepted = new Counter({
    name: "pictor_renders_accepted_total",
    help: "Renders accepted (charged and queued), by output format and how they were asked for.",
    labelNames: ["format", "mode"],
    registers: [registry],
  });
  const completed = new Counter({
    name: "pictor_renders_completed_total",
    help: "Renders completed by this process, by output format.",
    labelNames: ["format"],
    registers: [registry],
  });
  const failed = new Counter({
    name: "pictor_renders_failed_total",
    help: "Renders failed by this process, by output format and error code.",
    labelNames: ["format", "code"],
    registers: [registry],
  });
  const refunded = new Counter({
    name: "pictor_renders_refunded_total",
    help: "Renders refunded (every failed render is), by output format.",
    labelNames: ["format"],
    registers: [registry],
  });
  const charged = new Counter({
    name: "pictor_credits_charged_total",
    help: "Credits charged for accepted renders.",
    registers: [registry],
  });
  const creditsRefunded = new Counter({
    name: "pictor_credits_refunded_total",
    help: "Credits refunded for failed renders.",
    registers: [registry],
  });
  const duration = new Histogram({
    name: "pictor_render_duration_seconds",
    help: "Renders from acceptance to their end (completed or failed), by output format and outcome.",
    labelNames: ["format", "outcome"],
    buckets: RENDER_BUCKETS,
    registers: [registry],
  });
  const phase = new Histogram({
    name: "pictor_render_phase_seconds",
    help: "Parts of completed renders: queue_wait (accepted to started), draw (images in, layout and raster on a render thread; a PDF's page encodes too), encode (PNG, JPEG, WebP), store (the output written).",
    labelNames: ["phase"],
    buckets: RENDER_BUCKETS,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: "pictor_webhook_deliveries_total",
    help: "Callback delivery attempts, by outcome: delivered, retrying (a later attempt is scheduled) or failed (given up).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const webhookSeconds = new Histogram({
    name: "pictor_webhook_delivery_duration_seconds",
    help: "How long receivers took to answer a callback attempt.",
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const imageUrls = new Counter({
    name: "pictor_image_url_requests_total",
    help: "On-demand image URLs answered, by render cache result: hit, miss (rendered for it) or collapsed (waited for another request's render).",
    labelNames: ["cache"],
    registers: [registry],
  });
  const imageUrlBytes = new Counter({
    name: "pictor_image_url_bytes_total",
    help: "Bytes of on-demand images answered, by render cache result.",
    labelNames: ["cache"],
    registers: [registry],
  });

  const { backlog, renderThreads } = options;
  if (backlog) {
    const counted = async () => {
      const [queued, pending] = await withTimeout(
        Promise.all([backlog.queued(), backlog.outboxPending()]),
        BACKLOG_TIMEOUT_MS,
      );
      return { queued, pending };
    };
    // One read for the three gauges, shared by every scrape for BACKLOG_MAX_AGE_MS from its start
    // (scrapes at the same moment wait for the same read); a database that does not answer leaves
    // them out, and is not asked again before that either.
    const now = options.now ?? (() => performance.now());
    let reading: Promise<Awaited<ReturnType<typeof counted>> | null> | null = null;
    let readAt = Number.NEGATIVE_INFINITY;
    const read = () => {
      const at = now();
      if (!reading || at - readAt >= BACKLOG_MAX_AGE_MS) {
        readAt = at;
        reading = counted().catch(() => null);
      }
      return reading;
    };
    new Gauge({
      name: "pictor_render_queue_depth",
      help: "Renders accepted and not yet started (the whole deployment's queue).",
      registers: [registry],
      async collect() {
        const now = await read();
        if (now) this.set(now.queued.count);
      },
    });
    new Gauge({
      name: "pictor_render_queue_oldest_age_seconds",
      help: "Age of the oldest render accepted and not yet started (0 when none waits).",
      registers: [registry],
      async collect() {
        const now = await read();
        if (now) this.set(now.queued.oldestAgeSeconds);
      },
    });
    new Gauge({
      name: "pictor_webhook_outbox_pending",
      help: "Callback events not yet delivered nor given up (the whole deployment's outbox).",
      registers: [registry],
      async collect() {
        const now = await read();
        if (now) this.set(now.pending);
      },
    });
  }
  const { ready } = options;
  if (ready) {
    new Gauge({
      name: "pictor_ready",
      help: "1 when this process can do its work (what /readyz answers 200 for), 0 when not or draining.",
      registers: [registry],
      async collect() {
        this.set((await ready()) ? 1 : 0);
      },
    });
  }
  if (renderThreads) {
    new Gauge({
      name: "pictor_render_threads",
      help: "Render threads of this process.",
      registers: [registry],
      collect() {
        this.set(renderThreads().size);
      },
    });
    new Gauge({
      name: "pictor_render_threads_busy",
      help: "Render threads of this process with a render to draw now.",
      registers: [registry],
      collect() {
        this.set(renderThreads().busy);
      },
    });
  }

  // Label sets are few (routes x methods x statuses, formats x modes, error codes): each one's child
  // is made once and kept, so a request or a render costs a map lookup and an observe, not a label
  // object and its validation.
  const httpChild = children((method: string, route: string, status: number) =>
    http.labels(method, route, String(status)),
  );
  const acceptedChild = children((format: string, mode: string) => accepted.labels(format, mode));
  const completedChild = children((format: string) => ({
    count: completed.labels(format),
    duration: duration.labels(format, "completed"),
  }));
  const failedChild = children((format: string, code: string) => failed.labels(format, code));
  const refundedChild = children((format: string) => ({
    count: refunded.labels(format),
    duration: duration.labels(format, "failed"),
  }));
  const webhookChild = children((outcome: string) => webhooks.labels(outcome));
  const imageUrlChild = children((cache: string) => ({
    count: imageUrls.labels(cache),
    bytes: imageUrlBytes.labels(cache),
  }));
  const phaseChildren = {
    queueWait: phase.labels("queue_wait"),
    draw: phase.labels("draw"),
    encode: phase.labels("encode"),
    store: phase.labels("store"),
  };
  const observePhases = (took: RenderPhases) => {
    phaseChildren.queueWait.observe(took.queueWait);
    if (took.draw !== undefined) phaseChildren.draw.observe(took.draw);
    if (took.encode !== undefined) phaseChildren.encode.observe(took.encode);
    if (took.store !== undefined) phaseChildren.store.observe(took.store);
  };

  return {
    httpRequest(method, route, status, seconds) {
      httpChild(method, route, status).observe(seconds);
    },
    accepted(format, mode, credits) {
      acceptedChild(format, mode).inc();
      charged.inc(credits);
    },
    completed(format, phases) {
      const child = completedChild(format);
      child.count.inc();
      child.duration.observe(phases.total);
      observePhases(phases);
    },
    failed(format, code, refundedCredits, phases) {
      failedChild(format, code).inc();
      const child = refundedChild(format);
      child.count.inc();
      creditsRefunded.inc(refundedCredits);
      if (phases) child.duration.observe(phases.total);
    },
    webhookAttempt(outcome, seconds) {
      webhookChild(outcome).inc();
      webhookSeconds.observe(seconds);
    },
    imageUrl(cache, bytes) {
      const child = imageUrlChild(cache);
      child.count.inc();
      child.bytes.inc(bytes);
    },
    async expose() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** `make` memoised on its arguments (bounded label values, so the map stays small). */
function children<Args extends (string | number)[], Child>(
  make: (...args: Args) => Child,
): (...args: Args) => Child {
  const made = new Map<string, Child>();
  return (...args) => {
    const key = args.join("\u0000");
    let child = made.get(key);
    if (child === undefined) {
      child = make(...args);
      made.set(key, child);
    }
    return child;
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
