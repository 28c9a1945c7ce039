import { type ClientRequest, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonDepthExceeds } from "../../src/http/plugins/json-body.ts";
import { json, startApp, type TestApp } from "./app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startApp((app) => {
    app.post("/v1/echo", async (request) => ({ received: request.body }));
    app.post("/v1/batches", { bodyLimit: 10 * 1024 * 1024 }, async (request) => ({
      bytes: JSON.stringify(request.body).length,
    }));
  });
});
afterAll(() => t.close());

const post = (path: string, body: BodyInit, contentType = "application/json") =>
  fetch(`${t.url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });

/** POST /v1/echo through node:http, for what fetch will not send: no Content-Type, or a length never sent. */
function rawPost(
  headers: Record<string, string>,
  send: (req: ClientRequest) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${t.url}/v1/echo`, { method: "POST", headers });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    send(req);
  });
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await json(response);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(response.headers.get("x-request-id"));
}

describe("JSON body hardening", () => {
  it("parses JSON with a charset parameter", async () => {
    const response = await post("/v1/echo", '{"a":[1,{"b":"c"}]}', "application/json; charset=utf-8");
    expect(response.status).toBe(200);
    expect((await json(response)).received).toEqual({ a: [1, { b: "c" }] });
  });

  it("answers malformed JSON with 400 invalid_json", async () => {
    await expectError(await post("/v1/echo", '{"a":'), 400, "invalid_json");
    await expectError(await post("/v1/echo", " "), 400, "invalid_json");
  });

  it("answers other content types with 415 unsupported_media_type", async () => {
    await expectError(await post("/v1/echo", '{"a":1}', "text/plain"), 415, "unsupported_media_type");
    await expectError(
      await post("/v1/echo", "a=1", "application/x-www-form-urlencoded"),
      415,
      "unsupported_media_type",
    );
  });

  it("answers a body without Content-Type with 415", async () => {
    const { status, body } = await rawPost({ "content-length": "7" }, (req) => req.end('{"a":1}'));
    expect(status).toBe(415);
    expect(JSON.parse(body).error.code).toBe("unsupported_media_type");
  });

  it("refuses 10,000 levels of nesting with 400 invalid_json and keeps serving", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    await expectError(await post("/v1/echo", deep), 400, "invalid_json");
    const deepObject = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    await expectError(await post("/v1/echo", deepObject), 400, "invalid_json");
    const alive = await post("/v1/echo", "[[1]]");
    expect(alive.status).toBe(200);
  });

  it("counts depth outside strings only", () => {
    expect(jsonDepthExceeds(`{"a":"${"[".repeat(100)}\\"{{{{"}`, 2)).toBe(false);
    expect(jsonDepthExceeds("[[[1]]]", 2)).toBe(true);
    expect(jsonDepthExceeds("[[[1]]]", 3)).toBe(false);
    // An escaped backslash before the closing quote does not escape the quote.
    const afterEscapedBackslash = JSON.stringify(["a\\", [[1]]]);
    expect(afterEscapedBackslash).toBe('["a\\\\",[[1]]]');
    expect(jsonDepthExceeds(afterEscapedBackslash, 2)).toBe(true);
    expect(jsonDepthExceeds(afterEscapedBackslash, 3)).toBe(false);
  });

  it("refuses __proto__ keys as 400 invalid_request", async () => {
    await expectError(await post("/v1/echo", '{"a":{"__proto__":{"admin":true}}}'), 400, "invalid_request");
    await expectError(
      await post("/v1/echo", '{"constructor":{"prototype":{"x":1}}}'),
      400,
      "invalid_request",
    );
  });

  it("answers a body over 1 MiB with 413 payload_too_large", async () => {
    const big = JSON.stringify({ text: "x".repeat(1024 * 1024) });
    await expectError(await post("/v1/echo", big), 413, "payload_too_large");
  });

  it("lets a route raise its own limit (batch: 10 MiB)", async () => {
    const response = await post("/v1/batches", JSON.stringify({ text: "x".repeat(2 * 1024 * 1024) }));
    expect(response.status).toBe(200);
  });

  it("refuses an oversized declared Content-Length before the body is sent", async () => {
    // Announce 50 MiB but send nothing: the answer must come without the server waiting for it.
    const { status, body } = await rawPost(
      { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) },
      (req) => req.flushHeaders(),
    );
    expect(status).toBe(413);
    expect(JSON.parse(body).error.code).toBe("payload_too_large");
  });

  it("stops a chunked body once it passes the limit", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode(`"${"y".repeat(64 * 1024 - 2)}",`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("["));
      },
      pull(controller) {
        // Endless unless the server stops reading; 64 MiB is a generous ceiling for the test.
        if (sent > 64 * 1024 * 1024) {
          controller.close();
          return;
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${t.url}/v1/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit).catch((error: unknown) => error);
    if (response instanceof Response) {
      await expectError(response, 413, "payload_too_large");
    }
    // Either way the server stopped reading near the 1 MiB limit (measured: ~4 MiB in flight) and still serves.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    expect((await post("/v1/echo", "{}")).status).toBe(200);
  });
});
