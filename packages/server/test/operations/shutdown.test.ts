import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { expect, it } from "vitest";
import { api } from "../api/support.ts";
import { tinyTemplate } from "../callbacks/support.ts";
import { exited, scratchForPictor, spawnServe, trialKeyOf } from "../cli/serve-process.ts";
import { startHeldImage } from "../support/held-image.ts";
import { scrape, untilStatus } from "./support.ts";

// SIGTERM on `pictor serve` (embedded default) while callers wait for renders, one of them held
// mid-render and others behind it: /readyz answers 503 at once and requests are still taken for the
// drain delay; then every waiting caller gets its answer (the render, or 202 with its URL) and the
// process exits 0. The time from SIGTERM to exit is printed (and logged as "stopped"), not asserted.
const { dir, children } = scratchForPictor("pictor-shutdown-");

it("answers every waiting caller and exits after SIGTERM, /readyz 503 during the drain delay", async () => {
  const images = await startHeldImage();
  const data = join(dir, "data");
  mkdirSync(data);
  try {
    const server = await spawnServe(
      data,
      {
        ...process.env,
        PICTOR_LOG_LEVEL: "info",
        PICTOR_DRAIN_DELAY_SECONDS: "1",
        PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port}`,
        PICTOR_EXAMPLES_DIR: join(dir, "no-examples"),
      },
      children,
    );
    const key = trialKeyOf(server);
    expect(
      (await api(server, "POST", "/v1/templates", { key, body: { document: tinyTemplate(), publish: true } }))
        .status,
    ).toBe(201);
    await untilStatus(`${server.url}/readyz`, 200);
    const held = api(server, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [{ name: "photo", image_url: images.url }], wait: 60 },
    });
    await images.requested;
    const behind = Array.from({ length: 4 }, (_, i) =>
      api(server, "POST", "/v1/renders", {
        key,
        body: { template: "tiny", modifications: [{ name: "title", text: `behind ${i}` }], wait: 60 },
      }),
    );
    // All five are accepted (charged; four queued behind the held one) before the stop.
    const deadline = Date.now() + 30_000;
    while ((await scrape(server.url)).get('pictor_renders_accepted_total{format="png",mode="wait"}') !== 5) {
      if (Date.now() > deadline) throw new Error("the renders were not all accepted");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sigterm = performance.now();
    server.child.kill("SIGTERM");
    const draining = await untilStatus(`${server.url}/readyz`, 503);
    expect(await draining.json()).toMatchObject({ status: "draining" });
    images.release();
    const answers = await Promise.all([held, ...behind]);
    const { code } = await exited(server.child);
    const seconds = (performance.now() - sigterm) / 1000;
    expect(code).toBe(0);
    for (const res of answers) {
      expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 200) expect(res.body.status).toBe("completed");
      else expect(res.headers.get("location")).toBe(`/v1/renders/${res.body.id}`);
    }
    expect(answers[0]?.status).toBe(200);
    const stopped = server
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"msg":"stopped"'))
      .map((line) => JSON.parse(line) as { duration_ms: number });
    expect(stopped).toHaveLength(1);
    console.log(
      `SIGTERM to exit: ${seconds.toFixed(2)} s (drain delay 1 s; "stopped" logged after ${stopped[0]?.duration_ms} ms); answers ${answers.map((r) => r.status).join(", ")}`,
    );
  } finally {
    images.release();
    await images.close();
  }
});

// A client that stopped sending (a request body promised and never sent) holds Fastify's close until
// Node's request timeout (300 s): the stop cuts it after PICTOR_CLOSE_GRACE_SECONDS instead.
it("closes a connection whose request body never comes, after the close grace, and exits", async () => {
  const data = join(dir, "data-stalled");
  mkdirSync(data);
  const server = await spawnServe(
    data,
    {
      ...process.env,
      PICTOR_LOG_LEVEL: "info",
      PICTOR_DRAIN_DELAY_SECONDS: "1",
      PICTOR_CLOSE_GRACE_SECONDS: "1",
      PICTOR_EXAMPLES_DIR: join(dir, "no-examples"),
    },
    children,
  );
  const key = trialKeyOf(server);
  await untilStatus(`${server.url}/readyz`, 200);
  const sigterm = performance.now();
  server.child.kill("SIGTERM");
  // During the drain delay requests are still served: this one starts, and its body never comes.
  await untilStatus(`${server.url}/readyz`, 503);
  const { port, hostname } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await once(socket, "connect");
  const closed = once(socket, "close");
  socket.write(
    `POST /v1/renders HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"template":',
  );
  const { code } = await exited(server.child);
  const seconds = (performance.now() - sigterm) / 1000;
  await closed;
  expect(code).toBe(0);
  console.log(
    `SIGTERM to exit with a stalled request body: ${seconds.toFixed(2)} s (drain delay 1 s, close grace 1 s)`,
  );
});
