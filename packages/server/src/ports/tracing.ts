/** What a span may say about itself: ids, formats, counts and codes; never secrets, URLs or slot values. */
export type TraceAttributes = Record<string, string | number | boolean>;

/** One timed step of a trace (a request, a charge, a render on a worker, a callback attempt). */
export interface TraceSpan {
  /**
   * This span as a W3C `traceparent` header value, for a step that runs later or in another process
   * (a queued render, a callback): "" when traces are off.
   */
  readonly traceparent: string;
  /** Adds attributes once they are known (the render id after validation, a status code). */
  set(attributes: TraceAttributes): void;
  /** Ends the span now, or at `endMs` (epoch ms); with `error` (an error code) its status is an error. */
  end(outcome?: { error?: string; endMs?: number }): void;
}

export interface SpanOptions {
  /** The step this one is part of: a span of this process, or a `traceparent` carried from another. */
  parent?: TraceSpan | string | undefined;
  kind?: "server" | "client" | "producer" | "consumer" | "internal";
  attributes?: TraceAttributes;
  /** When it started (epoch ms), when not now: a step measured elsewhere (a queue wait, a draw). */
  startMs?: number;
}

/**
 * Where the application reports the steps of its work as traces (OpenTelemetry, or nothing). Off, it
 * is `noTracing`: every span is the same inert object, so callers need not test whether it is on.
 */
export interface Tracing {
  /** False when traces go nowhere: a caller may skip work done only to describe a span. */
  readonly on: boolean;
  start(name: string, options?: SpanOptions): TraceSpan;
  /** Sends the spans still buffered, then stops (at the process's end). */
  close(): Promise<void>;
}

const inertSpan: TraceSpan = {
  traceparent: "",
  set() {},
  end() {},
};

/** Traces off: nothing recorded, nothing allocated per span. */
export const noTracing: Tracing = {
  on: false,
  start: () => inertSpan,
  close: async () => {},
};
