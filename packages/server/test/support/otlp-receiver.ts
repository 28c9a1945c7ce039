import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";

/** One span as an OTLP/JSON export carried it, with its process's resource attributes. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** The exporting process's `pictor.role` (api, worker, all). */
  role: string;
  attributes: Record<string, unknown>;
  /** 2: error. */
  statusCode: number;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type OtlpAttribute = { key: string; value: OtlpValue };
const otlpValue = (v: OtlpValue) => v.stringValue ?? v.boolValue ?? v.doubleValue ?? Number(v.intValue);
const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, otlpValue(a.value)]));

/**
 * An OTLP/HTTP receiver on loopback, as a collector's HTTP port: takes `POST /v1/traces` with JSON
 * bodies (anything else is refused with 415, so a protobuf export would fail the test) and keeps the
 * spans.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  let raw = "";
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      if (!req.headers["content-type"]?.startsWith("application/json")) return void res.writeHead(415).end();
      raw += body;
      const exported = JSON.parse(body) as {
        resourceSpans: {
          resource: { attributes: OtlpAttribute[] };
          scopeSpans: {
            spans: {
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              name: string;
              attributes?: OtlpAttribute[];
              status?: { code?: number };
            }[];
          }[];
        }[];
      };
      for (const resource of exported.resourceSpans) {
        const role = String(attributesOf(resource.resource.attributes)["pictor.role"]);
        for (const scope of resource.scopeSpans) {
          for (const s of scope.spans) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? "",
              name: s.name,
              role,
              attributes: attributesOf(s.attributes),
              statusCode: s.status?.code ?? 0,
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** For OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
    url,
    spans: () => spans,
    /** Every body received, as sent. */
    raw: () => raw,
    /** Polls until `done` holds over the spans received (exports come in batches). */
    async until(done: (spans: ReceivedSpan[]) => boolean, timeoutMs = 30_000): Promise<ReceivedSpan[]> {
      const deadline = Date.now() + timeoutMs;
      while (!done(spans)) {
        if (Date.now() > deadline) throw new Error(`spans received: ${spans.map((s) => s.name).join(", ")}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return spans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The steps a traced render with a callback goes through, each a span of one trace. */
export const RENDER_TRACE_SPANS = [
  "POST /v1/renders",
  "render.accept",
  "render.charge",
  "render.queue_wait",
  "render.run",
  "render.task",
  "render.draw",
  "render.encode",
  "render.store",
  "render.complete",
  "webhook.deliver",
] as const;

/** Whether every span of the render's trace has arrived. */
export const renderTraceArrived = (spans: ReceivedSpan[], renderId: string) => {
  const traced = spans.find((s) => s.attributes["pictor.render.id"] === renderId);
  if (!traced) return false;
  const names = new Set(spans.filter((s) => s.traceId === traced.traceId).map((s) => s.name));
  return RENDER_TRACE_SPANS.every((name) => names.has(name));
};

/**
 * Asserts that the render's spans form one trace: every span naming the render is in it, it holds
 * each step once, its one root is the API request, and every other span's parent is in it. Returns
 * the trace's spans by name.
 */
export function expectOneRenderTrace(spans: ReceivedSpan[], renderId: string): Map<string, ReceivedSpan> {
  const ofRender = spans.filter((s) => s.attributes["pictor.render.id"] === renderId);
  const traceIds = new Set(ofRender.map((s) => s.traceId));
  expect(traceIds.size).toBe(1);
  const [traceId] = traceIds;
  const trace = spans.filter((s) => s.traceId === traceId);
  const byName = new Map(trace.map((s) => [s.name, s]));
  expect([...byName.keys()].sort()).toEqual([...RENDER_TRACE_SPANS].sort());
  expect(trace.length).toBe(RENDER_TRACE_SPANS.length);
  const ids = new Set(trace.map((s) => s.spanId));
  const roots = trace.filter((s) => !ids.has(s.parentSpanId));
  expect(roots.map((s) => s.name)).toEqual(["POST /v1/renders"]);
  expect(roots[0]?.parentSpanId).toBe("");
  const parentOf = (name: string) => trace.find((s) => s.spanId === byName.get(name)?.parentSpanId)?.name;
  expect(parentOf("render.accept")).toBe("POST /v1/renders");
  expect(parentOf("render.charge")).toBe("render.accept");
  expect(parentOf("render.run")).toBe("render.charge");
  expect(parentOf("render.queue_wait")).toBe("render.charge");
  expect(parentOf("render.draw")).toBe("render.task");
  expect(parentOf("webhook.deliver")).toBe("render.run");
  for (const span of trace) expect(span.statusCode, span.name).not.toBe(2);
  return byName;
}
