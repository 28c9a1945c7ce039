import { connect } from "node:net";
import { expect, it } from "vitest";
import { startApp } from "./app.ts";

/** Two requests pipelined on one keep-alive connection: the second arrives while the server closes. */
it("a request arriving during shutdown gets the API's 503 unavailable, with Retry-After and X-Request-Id", async () => {
  let entered!: () => void;
  const slowEntered = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let closing!: () => void;
  const closeBegan = new Promise<void>((resolve) => {
    closing = resolve;
  });
  const t = await startApp((app) => {
    app.get("/slow", async () => {
      entered();
      await released;
      return { ok: true };
    });
    app.get("/fast", async () => ({ ok: true }));
    // Runs after the plugin's own preClose hook (registered earlier).
    app.addHook("preClose", async () => closing());
  });
  const secondArrived = new Promise<void>((resolve) =>
    t.app.server.on("request", (request: { url?: string }) => request.url === "/fast" && resolve()),
  );
  const { port } = new URL(t.url);
  const socket = connect(Number(port), "127.0.0.1");
  let received = "";
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.write("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n");
  await slowEntered;
  const closed = t.close();
  await closeBegan;
  socket.write("GET /fast HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: req_during_shutdown\r\n\r\n");
  // The second request is in the server before the first one finishes: it is refused because the
  // server is closing, not because the connection was already done.
  await secondArrived;
  release();
  await Promise.all([ended, closed]);

  const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
  expect(first).toMatch(/^HTTP\/1\.1 200 /);
  expect(second).toMatch(/^HTTP\/1\.1 503 /);
  const [head, body] = (second as string).split("\r\n\r\n") as [string, string];
  expect(head.toLowerCase()).toContain("retry-after: 5");
  expect(head.toLowerCase()).toContain("x-request-id: req_during_shutdown");
  expect(head.toLowerCase()).toContain("connection: close");
  expect(JSON.parse(body)).toEqual({
    error: {
      code: "unavailable",
      message: "The server is shutting down; retry shortly.",
      request_id: "req_during_shutdown",
    },
  });
});
