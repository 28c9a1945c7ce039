/** Where a process sends its traces: OTLP over HTTP (JSON bodies), and the service they are named for. */
export interface TracingConfig {
  /** The traces endpoint, path included (`http://collector:4318/v1/traces`). */
  endpoint: string;
  serviceName: string;
  /** How long ended spans wait to be sent together (OTEL_BSP_SCHEDULE_DELAY; default 5000 ms). */
  batchDelayMs: number;
}

/**
 * Traces from OpenTelemetry's own variables, so a collector set up for other services needs nothing
 * new: on when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as given) or `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (with `/v1/traces` appended) is set, unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`.
 * The exporter speaks OTLP/HTTP with JSON bodies, which collectors take on the same port as protobuf;
 * `grpc` is refused (it needs another port and library). Problems are added to `problems`.
 */
export function readTracingConfig(
  env: Record<string, string | undefined>,
  problems: string[],
): TracingConfig | null {
  const set = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  if (set("OTEL_SDK_DISABLED")?.toLowerCase() === "true") return null;
  const exporter = set("OTEL_TRACES_EXPORTER")?.toLowerCase();
  if (exporter === "none") return null;
  const traces = set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const base = set("OTEL_EXPORTER_OTLP_ENDPOINT");
  if (traces === undefined && base === undefined) return null;
  if (exporter !== undefined && exporter !== "otlp") {
    problems.push(`OTEL_TRACES_EXPORTER: must be otlp or none (got ${JSON.stringify(exporter)})`);
  }
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
    const protocol = set(name);
    if (protocol !== undefined && protocol !== "http/json" && protocol !== "http/protobuf") {
      problems.push(
        `${name}: must be http/json (Pictor sends OTLP over HTTP as JSON; got ${JSON.stringify(protocol)})`,
      );
    }
  }
  const endpoint = traces ?? `${(base as string).replace(/\/+$/, "")}/v1/traces`;
  if (!/^https?:\/\/[^/]/.test(endpoint)) {
    const name = traces ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT";
    problems.push(`${name}: must be an http:// or https:// URL (got ${JSON.stringify(traces ?? base)})`);
  }
  const delay = set("OTEL_BSP_SCHEDULE_DELAY");
  const batchDelayMs = delay === undefined ? 5000 : Number(delay);
  if (!Number.isInteger(batchDelayMs) || batchDelayMs < 0) {
    problems.push(
      `OTEL_BSP_SCHEDULE_DELAY: must be a whole number of milliseconds (got ${JSON.stringify(delay)})`,
    );
  }
  return { endpoint, serviceName: set("OTEL_SERVICE_NAME") ?? "pictor", batchDelayMs };
}
