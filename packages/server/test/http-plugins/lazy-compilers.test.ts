import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePending } from "../../src/http/plugins/lazy-compilers.ts";
import { httpServerOptions } from "../../src/http/plugins/server-options.ts";
import { startTestServer, type TestServer } from "../api/support.ts";

describe("validators and serializers compiled on first use", () => {
  it("answer as compiled ones: coerced query, refused body with its errors, serialized response", async () => {
    const app = Fastify(httpServerOptions());
    app.post(
      "/things",
      {
        schema: {
          querystring: { type: "object", properties: { limit: { type: "integer" } } },
          body: {
            type: "object",
            required: ["name"],
            additionalProperties: false,
            properties: { name: { type: "string" } },
          },
          response: {
            200: { type: "object", properties: { limit: { type: "integer" }, name: { type: "string" } } },
          },
        },
      },
      async (request) => ({
        limit: (request.query as { limit: number }).limit,
        name: (request.body as { name: string }).name,
        secret: "not in the schema, so not serialised",
      }),
    );
    const ok = await app.inject({ method: "POST", url: "/things?limit=5", payload: { name: "a" } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('{"limit":5,"name":"a"}');
    const refused = await app.inject({ method: "POST", url: "/things", payload: { name: "a", other: 1 } });
    expect(refused.statusCode).toBe(400);
    // Fastify's own error body (this bare app has not the API's error handler): the validator's errors.
    expect(refused.json().message).toBe("body must NOT have additional properties");
    const badQuery = await app.inject({ method: "POST", url: "/things?limit=x", payload: { name: "a" } });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().message).toBe("querystring/limit must be integer");
    await app.close();
  });
});

describe("every route of pictor serve", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  }, 60_000);
  afterAll(() => t?.close());

  it("has schemas that compile (what Fastify checked at start before compiling lazily)", () => {
    expect(() => compilePending()).not.toThrow();
  });
});
