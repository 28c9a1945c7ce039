import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, balanceOf, newAccount, publishTemplate, startTestServer, type TestServer } from "./support.ts";

/** A progress bar bound to number slots and a bar chart bound to a list of weeks. */
const campaign = {
  version: 3,
  key: "campaign",
  name: "Campaign",
  slots: [
    { name: "raised", type: "number", min: 0 },
    { name: "goal", type: "number", default: 1000 },
    {
      name: "weeks",
      type: "list",
      fields: [
        { name: "week", type: "text" },
        { name: "amount", type: "number", required: true },
      ],
    },
  ],
  frames: [
    {
      name: "main",
      width: 240,
      height: 160,
      layers: [
        {
          id: "bar",
          type: "progress",
          x: 10,
          y: 10,
          width: 220,
          height: 16,
          value: 0,
          bind: { value: "raised", max: "goal" },
        },
        {
          id: "chart",
          type: "chart",
          kind: "bar",
          x: 10,
          y: 40,
          width: 220,
          height: 110,
          data: [],
          bind: { data: "weeks" },
          value_field: "amount",
          label_field: "week",
        },
      ],
    },
  ],
};

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ key } = await newAccount(t, 100));
  await publishTemplate(t, key, campaign);
});
afterAll(() => t?.close());

const render = (modifications: unknown[]) =>
  api(t, "POST", "/v1/renders", { key, body: { template: "campaign", wait: true, modifications } });
const weeks = (count: number) => Array.from({ length: count }, (_, i) => ({ week: `W${i + 1}`, amount: i }));

describe("progress and chart layers over HTTP", () => {
  it("renders a bound number and 50 list items, charging one credit", async () => {
    const before = await balanceOf(t, key);
    const res = await render([
      { name: "raised", number: 720 },
      { name: "weeks", items: weeks(50) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("completed");
    expect(await balanceOf(t, key)).toBe(before - 1);
  });

  it("refuses more items than a chart shows, and an empty bound range, with the path, charging nothing", async () => {
    const before = await balanceOf(t, key);
    const tooMany = await render([{ name: "weeks", items: weeks(51) }]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe("invalid_request");
    expect(tooMany.body.error.message).toBe(
      `Slot 'weeks' has 51 items, but chart "chart" shows at most 50 points.`,
    );
    expect(tooMany.body.error.errors).toEqual([
      { path: "modifications[0].items", message: 'has 51 items, but chart "chart" shows at most 50 points' },
    ]);
    const empty = await render([
      { name: "raised", number: 5 },
      { name: "goal", number: 0 },
    ]);
    expect(empty.status).toBe(400);
    expect(empty.body.error.errors).toEqual([
      { path: "modifications[1].number", message: "must be greater than the progress layer's min (0)" },
    ]);
    const wrongType = await render([{ name: "raised", number: "72" }]);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.errors[0].path).toBe("modifications[0].number");
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("refuses at save a chart bound to a list without the value field", async () => {
    const broken = structuredClone(campaign);
    broken.key = "campaign-broken";
    (broken.frames[0]?.layers[1] as { value_field?: string }).value_field = "week";
    const res = await api(t, "POST", "/v1/templates", { key, body: { document: broken } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(JSON.stringify(res.body.error.errors)).toContain("a chart's values need a number field");
  });
});
