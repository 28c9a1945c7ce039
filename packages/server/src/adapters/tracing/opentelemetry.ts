import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { parseTraceParent } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { SpanOptions, TraceSpan, Tracing } from "../../ports/tracing.ts";

export interface OtlpTracingOptions {
  /** The OTLP/HTTP traces endpoint, path included (`http://collector:4318/v1/traces`). */
  endpoint: string;
  /** `service.name` of every span (OTEL_SERVICE_NAME; default `pictor`). */
  serviceName: string;
  /** How long ended spans wait to be sent together (OTEL_BSP_SCHEDULE_DELAY). */
  batchDelayMs: number;
  version: string;
  /** `api`, `worker` or `all`: which process of a deployment a span comes from. */
  role: string;
}

const KINDS = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
} as const;

/**
 * The tracing port on the OpenTelemetry SDK: spans batched and sent as OTLP over HTTP with JSON
 * bodies (what every collector accepts on its HTTP port). Parents are passed by hand (a span, or a
 * `traceparent` string that crossed the queue or was stored with a callback) rather than through an
 * async context: the few places that start spans all hold their parent, and no context manager then
 * runs on every await of the process.
 */
export function createOtlpTracing(options: OtlpTracingOptions): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": options.serviceName,
      "service.version": options.version,
      "pictor.role": options.role,
      "process.pid": process.pid,
    }),
    // Headers, timeout and compression come from OTEL_EXPORTER_OTLP_* as the exporter reads them.
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: options.endpoint }),
        scheduledDelayMillis: options.batchDelayMs,
      }),
    ],
  });
  const tracer = provider.getTracer("pictor", options.version);

  const contextOf = (parent: SpanOptions["parent"]): Context => {
    if (parent === undefined || parent === "") return ROOT_CONTEXT;
    if (typeof parent === "string") {
      const carried = parseTraceParent(parent);
      return carried ? trace.setSpanContext(ROOT_CONTEXT, { ...carried, isRemote: true }) : ROOT_CONTEXT;
    }
    return parent instanceof OtelTraceSpan
      ? trace.setSpan(ROOT_CONTEXT, parent.span)
      : contextOf(parent.traceparent);
  };

  return {
    on: true,
    start(name, spanOptions = {}) {
      const span = tracer.startSpan(
        name,
        {
          kind: KINDS[spanOptions.kind ?? "internal"],
          ...(spanOptions.attributes ? { attributes: spanOptions.attributes as Attributes } : {}),
          ...(spanOptions.startMs !== undefined ? { startTime: spanOptions.startMs } : {}),
        },
        contextOf(spanOptions.parent),
      );
      return new OtelTraceSpan(span);
    },
    async close() {
      await provider.shutdown();
    },
  };
}

class OtelTraceSpan implements TraceSpan {
  readonly span: Span;
  readonly traceparent: string;
  constructor(span: Span) {
    this.span = span;
    const { traceId, spanId, traceFlags } = span.spanContext();
    this.traceparent = `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, "0")}`;
  }
  set(attributes: Record<string, string | number | boolean>): void {
    this.span.setAttributes(attributes);
  }
  end(outcome: { error?: string; endMs?: number } = {}): void {
    if (outcome.error !== undefined) {
      this.span.setAttribute("error.type", outcome.error);
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    }
    this.span.end(outcome.endMs);
  }
}
