import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponses } from "../../src/http/plugins/openapi.ts";
import { json, startApp, type TestApp } from "./app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startApp((app) => {
    app.post(
      "/v1/renders",
      {
        schema: {
          summary: "Render a template",
          description: "Queues a render, or waits for it with `wait`.",
          body: {
            type: "object",
            required: ["template"],
            properties: {
              template: { type: "string", description: "Template id or slug." },
              scale: { type: "number", minimum: 1, maximum: 4, default: 1 },
              format: { type: "string", enum: ["png", "jpg", "webp"] },
              modifications: {
                type: "array",
                items: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } } },
              },
            },
          },
          response: {
            202: {
              description: "Accepted",
              type: "object",
              properties: { id: { type: "string" }, status: { type: "string" } },
            },
            ...errorResponses(400, 402, 422),
          },
        },
      },
      async (_request, reply) => reply.code(202).send({ id: "rnd_1", status: "queued" }),
    );
    app.get(
      "/v1/renders/:id",
      {
        schema: {
          summary: "Get a render",
          params: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
          response: { 200: { type: "object", properties: { id: { type: "string" } } } },
        },
      },
      async (request) => ({ id: (request.params as { id: string }).id }),
    );
  });
});
afterAll(() => t.close());

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document with the bearer scheme and the shared ErrorBody", async () => {
    const response = await fetch(`${t.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = await json(response);
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe("OpenAPI");
    expect(result.warnings).toEqual([]);

    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.schemas.ErrorBody.properties.error.required).toEqual([
      "code",
      "message",
      "request_id",
    ]);
    // Each error status with the codes the operation answers with it (no 4XX/5XX ranges).
    const post = document.paths["/v1/renders"].post;
    expect(post.responses["4XX"]).toBeUndefined();
    const invalid = post.responses["400"].content["application/json"].schema;
    expect(invalid.allOf[0].$ref).toBe("#/components/schemas/ErrorBody");
    expect(invalid.allOf[1].properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(["invalid_request", "invalid_json"]),
    );
    const get = document.paths["/v1/renders/{id}"].get;
    expect(Object.keys(get.responses)).toEqual(["200", "400", "401", "404", "429", "500", "503"]);
    expect(get.responses["404"].description).toBe("`not_found`");
    // Headers as the server sends them: X-Request-Id always, Retry-After with 429.
    expect(get.responses["200"].headers["X-Request-Id"].$ref).toBe("#/components/headers/XRequestId");
    expect(document.components.headers.XRequestId.required).toBe(true);
    expect(get.responses["429"].headers["Retry-After"].$ref).toBe("#/components/headers/RetryAfter");
    // The document and the reference list themselves, public.
    expect(document.paths["/docs"].get).toMatchObject({ operationId: "getApiReference", security: [] });
    expect(document.paths["/v1/openapi.json"].get.operationId).toBe("getOpenApiDocument");
  });

  it("serialises error details through a declared ErrorBody response", async () => {
    const response = await fetch(`${t.url}/v1/renders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ template: 1 }),
    });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error.errors).toEqual([{ path: "template", message: "must be string" }]);
  });

  it("serves a self-contained HTML reference at /docs", async () => {
    const response = await fetch(`${t.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("POST</span> <code>/v1/renders</code> Render a template");
    expect(html).toContain("<code>/v1/renders/{id}</code>");
    expect(html).toContain("Template id or slug.");
    expect(html).toContain('id="schema-ErrorBody"');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });
});
