import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, STATUS_BY_CODE } from "../../src/http/errors.ts";
import { formatPath } from "../../src/http/plugins/validation.ts";
import { json, startApp, type TestApp } from "./app.ts";

const renderBody = {
  type: "object",
  required: ["template"],
  additionalProperties: false,
  properties: {
    template: { type: "string", minLength: 1 },
    scale: { type: "number", minimum: 1, maximum: 4, default: 1 },
    modifications: {
      type: "array",
      items: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" }, color: { type: "string", pattern: "^#[0-9a-fA-F]{6}$" } },
      },
    },
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await startApp((app) => {
    app.post("/v1/renders", { schema: { body: renderBody } }, async (request) => ({
      received: request.body,
    }));
    app.get(
      "/v1/things",
      {
        schema: { querystring: { type: "object", properties: { limit: { type: "integer", maximum: 200 } } } },
      },
      async (request) => ({ query: request.query }),
    );
    app.get("/v1/credits", async () => {
      throw new ApiError("insufficient_credits", "Need 4 credits, have 1.", { required: 4, balance: 1 });
    });
    app.get("/v1/boom", async () => {
      throw new Error("database password is hunter2");
    });
  });
});
afterAll(() => t.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}/v1/renders`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("error bodies", () => {
  it("turns an ApiError into its status and flat details, with request_id equal to X-Request-Id", async () => {
    const response = await fetch(`${t.url}/v1/credits`);
    expect(response.status).toBe(402);
    const body = await json(response);
    expect(body).toEqual({
      error: {
        code: "insufficient_credits",
        message: "Need 4 credits, have 1.",
        request_id: response.headers.get("x-request-id"),
        required: 4,
        balance: 1,
      },
    });
    expect(body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("keeps a sane incoming X-Request-Id and replaces an unsafe one", async () => {
    const kept = await fetch(`${t.url}/v1/credits`, { headers: { "x-request-id": "client-abc-12345" } });
    expect(kept.headers.get("x-request-id")).toBe("client-abc-12345");
    expect((await json(kept)).error.request_id).toBe("client-abc-12345");
    const replaced = await fetch(`${t.url}/v1/credits`, { headers: { "x-request-id": "x<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers unknown routes with 404 not_found in the same shape", async () => {
    const response = await fetch(`${t.url}/v1/nope?x=1`);
    expect(response.status).toBe(404);
    const body = await json(response);
    expect(body.error.code).toBe("not_found");
    expect(body.error.request_id).toBe(response.headers.get("x-request-id"));
  });

  it("hides the message of an unexpected fault behind 500 internal_error", async () => {
    const response = await fetch(`${t.url}/v1/boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("hunter2");
    expect(JSON.parse(text).error.code).toBe("internal_error");
  });

  it("has one status per code", () => {
    expect(STATUS_BY_CODE.idempotency_key_in_use).toBe(409);
    expect(STATUS_BY_CODE.idempotency_key_reused).toBe(422);
    expect(new ApiError("unavailable", "x").statusCode).toBe(503);
  });
});

describe("validation errors", () => {
  it("names the JSON path of the failing field", async () => {
    const response = await post(
      JSON.stringify({
        template: "promo",
        modifications: [{ name: "a" }, { name: "b" }, { name: "c", color: "red" }],
      }),
    );
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.errors).toEqual([{ path: "modifications[2].color", message: expect.any(String) }]);
    expect(body.error.message).toContain("modifications[2].color");
  });

  it("names a missing required field and refuses unknown fields", async () => {
    const missing = await json(await post(JSON.stringify({ scale: 2 })));
    expect(missing.error.errors[0]).toEqual({ path: "template", message: "is required" });
    const unknown = await json(await post(JSON.stringify({ template: "promo", modifcations: [] })));
    expect(unknown.error.code).toBe("invalid_request");
    expect(unknown.error.errors[0]).toEqual({ path: "modifcations", message: "is not a known field" });
  });

  it.each([["0"], ["4.01"], ['"2"'], ["null"], ["1e308"], ["-1"]])(
    "scale %s is 400 invalid_scale",
    async (scale) => {
      const response = await post(`{"template":"promo","scale":${scale}}`);
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.error.code).toBe("invalid_scale");
      expect(body.error.errors[0].path).toBe("scale");
    },
  );

  it("reports a bad scale as invalid_scale even when another field fails first", async () => {
    const response = await post(`{"scale":"2"}`);
    const body = await json(response);
    expect(body.error.code).toBe("invalid_scale");
    expect(body.error.errors).toEqual([
      { path: "scale", message: "must be a number from 1 to 4" },
      { path: "template", message: "is required" },
    ]);
  });

  it("accepts a fractional scale within 1..4 without coercing strings", async () => {
    const response = await post(`{"template":"promo","scale":2.5}`);
    expect(response.status).toBe(200);
    expect((await json(response)).received).toEqual({ template: "promo", scale: 2.5 });
  });

  it("still coerces query strings, and prefixes their paths", async () => {
    const ok = await json(await fetch(`${t.url}/v1/things?limit=50`));
    expect(ok.query).toEqual({ limit: 50 });
    const bad = await fetch(`${t.url}/v1/things?limit=500`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.errors[0].path).toBe("querystring.limit");
  });

  it("formats odd keys as bracketed strings", () => {
    expect(formatPath(["metadata", "a b", "0"])).toBe('metadata["a b"][0]');
  });
});
