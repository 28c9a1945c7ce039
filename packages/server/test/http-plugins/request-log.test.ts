import { PassThrough } from "node:stream";
import Fastify from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loggableUrl, logOptions } from "../../src/main/running-server.ts";

const lines: string[] = [];
const stream = new PassThrough();
stream.on("data", (chunk: Buffer) => lines.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
const app = Fastify({ logger: logOptions({ logLevel: "info" }, stream) });
let url: string;

beforeAll(async () => {
  app.get("/v1/account", async (_request, reply) => reply.code(401).send({ error: "unauthorized" }));
  app.get("/a/:file", async () => "bytes");
  app.get("/o/:file", async () => "bytes");
  url = await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => app.close());

it("logs request URLs without query strings or asset capabilities", async () => {
  const secrets = [
    "sk_live_QueryStringKey",
    "0123456789abcdef0123456789abcdef",
    "sig=c2lnbmF0dXJl",
    "Bearer sk_live_HeaderKey",
  ];
  await fetch(`${url}/v1/account?api_key=sk_live_QueryStringKey`, {
    headers: { authorization: "Bearer sk_live_HeaderKey" },
  });
  await fetch(`${url}/a/0123456789abcdef0123456789abcdef.png`);
  await fetch(`${url}/o/ast_1.png?expires=1&sig=c2lnbmF0dXJl`);
  const logged = lines.map((line) => JSON.parse(line) as { req?: { url: string } });
  expect(logged.flatMap((entry) => (entry.req ? [entry.req.url] : []))).toEqual([
    "/v1/account?[redacted]",
    "/a/[redacted]",
    "/o/ast_1.png?[redacted]",
  ]);
  for (const secret of secrets) expect(lines.join("\n")).not.toContain(secret);
});

it("keeps what a URL asks for", () => {
  expect(loggableUrl("/v1/renders/rnd_1")).toBe("/v1/renders/rnd_1");
  expect(loggableUrl("/v1/templates?limit=5")).toBe("/v1/templates?[redacted]");
  expect(loggableUrl("/v1/assets/ast_1")).toBe("/v1/assets/ast_1");
});
