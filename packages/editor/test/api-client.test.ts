import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ApiFailure, allPages, apiBytes, storeKey } from "../src/api/client.ts";

// The editor's API client against a real HTTP server on loopback. Only the browser's sessionStorage
// is stood in for (Node has none by default): a Map behind the same three methods.
const stored = new Map<string, string>();
Object.assign(globalThis, {
  sessionStorage: {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  },
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handle: Handler = (_req, res) => res.end();
const seen: { url: string; authorization: string | undefined }[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
  req.resume().on("end", () => handle(req, res));
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  storeKey("sk_live_test");
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

it("apiBytes waits out a 429 for its Retry-After, then returns the answer, with the stored key", async () => {
  seen.length = 0;
  let calls = 0;
  handle = (_req, res) => {
    calls++;
    if (calls === 1)
      json(res, 429, { error: { code: "rate_limited", message: "busy" } }, { "retry-after": "1" });
    else res.end(Buffer.from([1, 2, 3]));
  };
  const res = await apiBytes(`${base}/v1/editor/prepare-image`, { src: "ast_x" });
  expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  expect(calls).toBe(2);
  expect(seen.map((s) => s.authorization)).toEqual(["Bearer sk_live_test", "Bearer sk_live_test"]);
});

it("apiBytes throws the API's error for any other failure, without retrying", async () => {
  let calls = 0;
  handle = (_req, res) => {
    calls++;
    json(res, 422, { error: { code: "image_fetch_failed", message: "No asset 'ast_x'." } });
  };
  const failure = await apiBytes(`${base}/v1/editor/prepare-image`, { src: "ast_x" }).catch((e) => e);
  expect(failure).toBeInstanceOf(ApiFailure);
  expect(failure).toMatchObject({ status: 422, code: "image_fetch_failed", message: "No asset 'ast_x'." });
  expect(calls).toBe(1);
});

it("allPages follows next_cursor to the end, 200 at a time, keeping the path's own parameters", async () => {
  seen.length = 0;
  handle = (req, res) => {
    const cursor = new URL(req.url ?? "", base).searchParams.get("cursor");
    if (cursor === null) json(res, 200, { data: [1, 2], next_cursor: "c 1" });
    else if (cursor === "c 1") json(res, 200, { data: [3], next_cursor: "c2" });
    else json(res, 200, { data: [], next_cursor: null });
  };
  expect(await allPages<number>(`${base}/v1/templates?include_drafts=true`)).toEqual([1, 2, 3]);
  expect(seen.map((s) => s.url)).toEqual([
    "/v1/templates?include_drafts=true&limit=200",
    "/v1/templates?include_drafts=true&limit=200&cursor=c%201",
    "/v1/templates?include_drafts=true&limit=200&cursor=c2",
  ]);
});
