import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  api,
  logoPng,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
  untilFinished,
} from "../../server/test/api/support.ts";
import { startReceiver, type TestReceiver } from "../../server/test/webhooks/support/receiver.ts";
import { Pictor } from "../nodes/Pictor/Pictor.node.ts";
import { PictorTrigger } from "../nodes/PictorTrigger/PictorTrigger.node.ts";
import { execute, webhook } from "./harness.ts";

// The n8n nodes against a real Pictor server, through n8n-workflow's node interfaces (test/harness.ts:
// n8n itself cannot be installed here). One server for the file.
let t: TestServer;
let receiver: TestReceiver;
let key: string;
let credentials: { baseUrl: string; apiKey: string; webhookSecret: string };
beforeAll(async () => {
  const receiverSecrets: string[] = [];
  receiver = await startReceiver(receiverSecrets);
  t = await startTestServer({ allowPorts: [receiver.port] });
  ({ key } = await newAccount(t, 100));
  await publishTemplate(t, key, testTemplate("n8n-card"));
  const secret = (await api(t, "GET", "/v1/webhook-secret", { key })).body.secret as string;
  receiverSecrets.push(secret);
  credentials = { baseUrl: `${t.url}/`, apiKey: key, webhookSecret: secret };
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const balance = async () => (await api(t, "GET", "/v1/account", { key })).body.credits_balance as number;

it("renders an image and puts it on the item: the bytes the API stored, charged once", async () => {
  const before = await balance();
  const [out] = await execute(new Pictor(), {
    credentials,
    parameters: {
      operation: "render",
      template: "n8n-card",
      values: '{ "title": "From n8n", "bg": "#224466" }',
      format: "png",
      scale: 1,
      download: true,
    },
  });
  const item = out?.[0];
  expect(item?.json).toMatchObject({ status: "completed", template: "n8n-card", format: "png" });
  const image = Buffer.from(item?.binary?.data?.data ?? "", "base64");
  expect(item?.binary?.data?.mimeType).toBe("image/png");
  const meta = await sharp(image).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["png", item?.json.width, item?.json.height]);
  const stored = Buffer.from(await (await fetch(String(item?.json.asset_url))).arrayBuffer());
  expect(image.equals(stored)).toBe(true);
  expect(await balance()).toBe(before - 1);

  const [got] = await execute(new Pictor(), {
    credentials,
    parameters: { operation: "getRender", renderId: item?.json.id },
  });
  expect(got?.[0]?.json).toMatchObject({ id: item?.json.id, status: "completed" });
});

it("renders a batch, signs an image URL and uploads an asset", async () => {
  const [batch] = await execute(new Pictor(), {
    credentials,
    parameters: {
      operation: "batch",
      rows: JSON.stringify([
        { template: "n8n-card", modifications: [{ name: "title", text: "Row 1" }] },
        { template: "missing", modifications: [] },
      ]),
    },
  });
  const rows = batch?.[0]?.json.renders as { index: number; id?: string; error?: { code: string } }[];
  expect(rows[1]?.error?.code).toBe("not_found");
  expect((await untilFinished(t, key, rows[0]?.id as string)).status).toBe("completed");

  const signingKey = await api(t, "POST", "/v1/url-signing-keys", { key, body: {} });
  const [signed] = await execute(new Pictor(), {
    credentials,
    parameters: {
      operation: "signUrl",
      keyId: signingKey.body.id,
      template: "n8n-card",
      values: '{ "title": "Signed" }',
      format: "png",
      scale: 1,
    },
  });
  const url = String(signed?.[0]?.json.url);
  const image = await fetch(url);
  expect([image.status, image.headers.get("content-type")]).toEqual([200, "image/png"]);
  await image.arrayBuffer();

  const logo = Buffer.from(await logoPng());
  const [uploaded] = await execute(new Pictor(), {
    credentials,
    parameters: { operation: "uploadAsset", binaryProperty: "data", folder: "n8n/" },
    items: [
      {
        json: {},
        binary: { data: { data: logo.toString("base64"), mimeType: "image/png", fileName: "logo.png" } },
      },
    ],
  });
  expect(uploaded?.[0]?.json).toMatchObject({ folder: "n8n/", name: "logo.png", content_type: "image/png" });
});

it("the trigger takes a real signed callback and refuses a forged one", async () => {
  const render = await api(t, "POST", "/v1/renders", {
    key,
    body: { template: "n8n-card", modifications: [], webhook_url: receiver.url("/n8n") },
  });
  expect(render.status).toBe(202);
  const callback = await receiver.waitForRequest(1);

  const taken = await webhook(new PictorTrigger(), {
    credentials,
    headers: callback.headers,
    rawBody: callback.rawBody,
  });
  expect(taken.status).toBeNull();
  const data = taken.result.workflowData?.[0]?.[0]?.json as { data?: { id?: string } } | undefined;
  expect(JSON.stringify(data)).toContain(render.body.id);

  const forgedBody = Buffer.from(
    callback.rawBody.toString("utf8").replace(render.body.id, "rnd_forged000000"),
  );
  for (const forged of [
    { headers: callback.headers, rawBody: forgedBody },
    {
      headers: { ...callback.headers, "x-service-signature": `sha256=${"0".repeat(64)}` },
      rawBody: callback.rawBody,
    },
    { headers: { ...callback.headers, "x-service-signature": undefined }, rawBody: callback.rawBody },
  ]) {
    const refused = await webhook(new PictorTrigger(), { credentials, ...forged });
    expect(refused.status).toBe(401);
    expect(refused.result).toEqual({ noWebhookResponse: true });
  }
});
