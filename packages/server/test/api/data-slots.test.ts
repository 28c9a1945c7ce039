import { signImageUrl } from "@pictor/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, balanceOf, newAccount, publishTemplate, startTestServer, type TestServer } from "./support.ts";

/** A template with the data slots: a number and a date shown as text, and a list of donors. */
const fundraiser = (sample?: Record<string, unknown>) => ({
  version: 2,
  key: "fundraiser",
  name: "Fundraiser",
  slots: [
    { name: "raised", type: "number", min: 0, default: 0 },
    { name: "ends", type: "date" },
    {
      name: "donors",
      type: "list",
      max_items: 20,
      fields: [
        { name: "name", type: "text", required: true },
        { name: "amount", type: "number", required: true },
        { name: "photo", type: "image" },
      ],
    },
  ],
  frames: [
    {
      name: "main",
      width: 200,
      height: 60,
      layers: [
        {
          id: "raised",
          type: "text",
          x: 10,
          y: 10,
          width: 180,
          height: 20,
          text: "0",
          font: { family: "Inter", size: 14 },
          color: "#111111",
          bind: { text: "raised" },
        },
        {
          id: "ends",
          type: "text",
          x: 10,
          y: 30,
          width: 180,
          height: 20,
          text: "",
          font: { family: "Inter", size: 14 },
          color: "#111111",
          bind: { text: "ends" },
        },
      ],
    },
  ],
  ...(sample && { sample }),
});

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ key } = await newAccount(t, 100));
  await publishTemplate(t, key, fundraiser());
});
afterAll(() => t?.close());

const render = (modifications: unknown[]) =>
  api(t, "POST", "/v1/renders", { key, body: { template: "fundraiser", wait: true, modifications } });

describe("number, date and list slots over HTTP", () => {
  it("renders with a number, a date and items, charging one credit", async () => {
    const before = await balanceOf(t, key);
    const res = await render([
      { name: "raised", number: 7250.5 },
      { name: "ends", date: "2026-12-24" },
      { name: "donors", items: [{ name: "Ada", amount: 500 }] },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("completed");
    expect(await balanceOf(t, key)).toBe(before - 1);
  });

  it("refuses a list item without a required field before any charge, naming the slot and the item", async () => {
    const before = await balanceOf(t, key);
    const res = await render([{ name: "donors", items: [{ name: "Ada", amount: 5 }, { name: "Bob" }] }]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toBe(`Slot 'donors' item [1] lacks the required field "amount".`);
    expect(res.body.error.errors).toEqual([
      { path: "modifications[0].items[1]", message: 'lacks the required field "amount"' },
    ]);
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("refuses values of the wrong type or shape with the path, charging nothing", async () => {
    const before = await balanceOf(t, key);
    const cases: [unknown, string][] = [
      [{ name: "raised", number: "72" }, "modifications[0].number"],
      [{ name: "raised", text: "72" }, "modifications[0]"],
      [{ name: "raised", number: -5 }, "modifications[0].number"],
      [{ name: "ends", date: "24.12.2026" }, "modifications[0].date"],
      [{ name: "donors", items: { name: "Ada" } }, "modifications[0].items"],
      [{ name: "donors", items: [{ name: "Ada", amount: "5" }] }, "modifications[0].items[0].amount"],
      [
        { name: "donors", items: [{ name: "Ada", amount: 5, photo: "ftp://x" }] },
        "modifications[0].items[0].photo",
      ],
      [
        { name: "donors", items: Array.from({ length: 21 }, () => ({ name: "A", amount: 1 })) },
        "modifications[0].items",
      ],
      [
        { name: "donors", items: Array.from({ length: 101 }, () => ({ name: "A", amount: 1 })) },
        "modifications[0].items",
      ],
    ];
    for (const [modification, path] of cases) {
      const res = await render([modification]);
      expect(res.status, JSON.stringify(modification)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.errors[0].path, JSON.stringify(res.body)).toBe(path);
    }
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("refuses a template whose sample list item lacks a required field, at save", async () => {
    const res = await api(t, "POST", "/v1/templates", {
      key,
      body: { document: { ...fundraiser({ donors: [{ amount: 5 }] }), key: "fundraiser-2" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.errors[0]).toEqual({
      path: "document.sample.donors[0]",
      message: 'lacks the required field "name"',
    });
  });

  it("the schema endpoint describes the number, date and list slots", async () => {
    const list = await api(t, "GET", "/v1/templates", { key });
    const id = (list.body.data as { key: string; id: string }[]).find((x) => x.key === "fundraiser")?.id;
    const res = await api(t, "GET", `/v1/templates/${id}/schema`, { key });
    expect(res.status).toBe(200);
    expect(res.body.slots).toEqual([
      { name: "raised", type: "number", min: 0, default: 0, frames: ["main"] },
      { name: "ends", type: "date", frames: ["main"] },
      {
        name: "donors",
        type: "list",
        max_items: 20,
        fields: [
          { name: "name", type: "text", required: true },
          { name: "amount", type: "number", required: true },
          { name: "photo", type: "image" },
        ],
        frames: [],
      },
    ]);
  });

  it("on-demand image URLs take a number as decimal text and a list's items as JSON; else 400 naming the slot, free", async () => {
    const created = await api(t, "POST", "/v1/url-signing-keys", { key, body: { name: "site" } });
    expect(created.status).toBe(201);
    const sign = (values: Record<string, string>) =>
      signImageUrl({
        baseUrl: t.url,
        keyId: created.body.id,
        secret: created.body.secret,
        template: "fundraiser",
        values,
      });
    const before = await balanceOf(t, key);
    const ok = await fetch(
      await sign({
        raised: "7250.5",
        ends: "2026-12-24",
        donors: JSON.stringify([{ name: "Ada", amount: 5 }]),
      }),
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(await balanceOf(t, key)).toBe(before - 1);
    const cases: [Record<string, string>, string][] = [
      [{ raised: "lots" }, "Slot 'raised' is a number slot: give a number."],
      [{ donors: "Ada" }, "Slot 'donors' is a list slot: give its items as a JSON array."],
      [
        { donors: JSON.stringify([{ name: "Bob" }]) },
        `Slot 'donors' item [0] lacks the required field "amount".`,
      ],
    ];
    for (const [values, message] of cases) {
      const res = await fetch(await sign(values));
      expect(res.status, message).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error).toMatchObject({ code: "invalid_request", message });
    }
    expect(await balanceOf(t, key)).toBe(before - 1);
  });
});
