import { createServer } from "node:net";
import type { Lookup } from "../../src/adapters/fetch/resolve-target.ts";
import { startTestServer, type TestServer } from "../api/support.ts";
import { startReceiver, type TestReceiver } from "../webhooks/support/receiver.ts";

/** A 64×64 template (one text, one colour, one image slot): cheap enough to render a thousand times. */
export function tinyTemplate(key = "tiny") {
  return {
    version: 1,
    key,
    name: "Tiny",
    slots: [
      { name: "title", type: "text", default: "Hi" },
      { name: "bg", type: "color", default: "#336699" },
      { name: "photo", type: "image" },
    ],
    frames: [
      {
        name: "main",
        width: 64,
        height: 64,
        background: "#FFFFFF",
        bind: { background: "bg" },
        layers: [
          { id: "photo", type: "image", x: 0, y: 0, width: 32, height: 32, src: "", bind: { src: "photo" } },
          {
            id: "title",
            type: "text",
            x: 2,
            y: 36,
            width: 60,
            height: 24,
            text: "Hi",
            font: { family: "Inter", size: 12 },
            color: "#000000",
            bind: { text: "title" },
          },
        ],
      },
    ],
  };
}

/** A loopback port with nothing listening (connection refused), for "unreachable" URLs. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface CallbackTestServer extends TestServer {
  /** Receivers verify against these; push the account's secret once it is known. */
  secrets: string[];
  receivers: TestReceiver[];
  deadPort: number;
}

/**
 * `pictor serve`'s composition root in-process with `receiverCount` loopback receivers allow-listed
 * (PICTOR_OUTBOUND_ALLOWLIST), next to the image origin and one closed port.
 */
export async function startCallbackServer(
  options: { receivers?: number; workers?: number; lookup?: Lookup; env?: Record<string, string> } = {},
): Promise<CallbackTestServer> {
  const secrets: string[] = [];
  const receivers: TestReceiver[] = [];
  for (let i = 0; i < (options.receivers ?? 1); i++) receivers.push(await startReceiver(secrets));
  const deadPort = await closedPort();
  const t = await startTestServer({
    workers: options.workers ?? 2,
    allowPorts: [deadPort, ...receivers.map((r) => r.port)],
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  return {
    ...t,
    secrets,
    receivers,
    deadPort,
    async close() {
      await t.close();
      for (const receiver of receivers) await receiver.close();
    },
  };
}

/** Parsed callback bodies by render id (the receiver keeps the raw bytes). */
export function bodiesByRender(receiver: TestReceiver): Map<string, { id: string; event_id: string }[]> {
  const byRender = new Map<string, { id: string; event_id: string }[]>();
  for (const callback of receiver.received) {
    const body = JSON.parse(callback.rawBody.toString("utf8")) as { id: string; event_id: string };
    byRender.set(body.id, [...(byRender.get(body.id) ?? []), body]);
  }
  return byRender;
}
