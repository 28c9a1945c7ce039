// Minimal types for the parts of autocannon the HTTP benchmark uses (no @types package installed).
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url?: string;
      connections?: number;
      duration?: number;
      amount?: number;
      method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
      headers?: Record<string, string>;
      body?: string;
    }
    interface Histogram {
      average: number;
      mean: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
  }
  /** A running load: awaitable for its result, and an emitter of one event per response. */
  interface Run extends PromiseLike<autocannon.Result> {
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void,
    ): this;
  }
  function autocannon(options: autocannon.Options): Run;
  export = autocannon;
}
