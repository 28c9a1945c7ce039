import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentDoc, openEditor, signedUp } from "./canvas-support.ts";
import {
  type EditorHarness,
  editorPixels,
  haveChromium,
  inCI,
  modificationsOf,
  renderThroughApi,
  type SlotSample,
  startEditorHarness,
  straightRgba,
  waitSaved,
} from "./harness.ts";

/** A blank frame with a number slot and a list slot for the new layers to bind. */
const board = {
  version: 3,
  key: "board",
  name: "Board",
  locale: "de-DE",
  slots: [
    { name: "raised", type: "number" },
    {
      name: "weeks",
      type: "list",
      fields: [
        { name: "week", type: "text" },
        { name: "amount", type: "number" },
      ],
    },
  ],
  frames: [{ name: "main", width: 800, height: 500, background: "#FFFFFF", layers: [] }],
};

type Layer = Record<string, unknown> & { id: string; type: string };
const layerOf = async (page: Parameters<typeof currentDoc>[0], id: string) =>
  (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === id) as Layer | undefined;

(haveChromium || inCI ? describe : describe.skip)("editor: progress and chart forms", () => {
  let h: EditorHarness;
  beforeAll(async () => {
    h = await startEditorHarness();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it("adds a progress bar and a chart from the menu, edits and binds them through their forms, and draws what the API returns", async () => {
    const { page, url } = h;
    const { key, call } = await signedUp(page, url, "Progress and chart");
    const created = await call<{ id: string }>("/v1/templates", { body: { document: board } });
    await openEditor(page, url, created.id);

    // A progress bar: value 30 typed, bound to the number slot, a label formatted in the locale.
    await page.getByTestId("add-layer").click();
    await page.getByTestId("add-progress-bar").click();
    expect((await layerOf(page, "bar-1"))?.type).toBe("progress");
    await page.getByTestId("prop-progress-value").fill("30");
    expect((await layerOf(page, "bar-1"))?.value).toBe(30);
    await page.getByTestId("bind-value").selectOption("raised");
    await page.getByTestId("prop-progress-label").check();
    await page.getByTestId("prop-progress-label-format-on").check();
    expect((await layerOf(page, "bar-1"))?.label).toMatchObject({ format: {} });

    // A chart: a line of typed data, then bound to the list with its fields chosen.
    await page.getByTestId("add-layer").click();
    await page.getByTestId("add-chart").click();
    expect((await layerOf(page, "chart-1"))?.type).toBe("chart");
    await page.getByTestId("prop-chart-kind").selectOption("line");
    await page.getByTestId("prop-chart-data").fill("Mo: 3\nDi: 7\nMi: 5");
    expect((await layerOf(page, "chart-1"))?.data).toEqual([
      { label: "Mo", value: 3 },
      { label: "Di", value: 7 },
      { label: "Mi", value: 5 },
    ]);
    await page.getByTestId("prop-chart-value-axis").check();
    await page.getByTestId("bind-data").selectOption("weeks");
    await page.getByTestId("prop-chart-value-field").selectOption("amount");
    await page.getByTestId("prop-chart-label-field").selectOption("week");
    await page.getByTestId("prop-chart-format-on").check();
    expect(await layerOf(page, "chart-1")).toMatchObject({
      kind: "line",
      value_axis: true,
      bind: { data: "weeks" },
      value_field: "amount",
      label_field: "week",
      format: {},
    });
    await waitSaved(page);

    // Published, rendered by the API with values of both slots, and drawn by the editor alike.
    await page.getByTestId("tab-publish").click();
    await page.getByTestId("publish-panel-button").click();
    await page.getByTestId("versions").locator("li").first().waitFor();
    const doc = await currentDoc(page);
    const values: Record<string, SlotSample> = {
      raised: 72.5,
      weeks: [
        { week: "KW 1", amount: 1250.5 },
        { week: "KW 2", amount: 3400 },
        { week: "KW 3", amount: 2100 },
      ],
    };
    const api = await renderThroughApi(url, key, {
      template: "board",
      frame: "main",
      scale: 1,
      modifications: modificationsOf(doc as never, values),
    });
    const editor = await editorPixels(page, "main", values, 1);
    expect([editor.width, editor.height]).toEqual([api.width, api.height]);
    expect((await straightRgba(editor)).equals(api.rgba), "API PNG differs from the editor's pixels").toBe(
      true,
    );
    // The values were drawn: the design's own data and value give other pixels.
    const design = await editorPixels(page, "main", {}, 1);
    expect((await straightRgba(design)).equals(api.rgba)).toBe(false);
  }, 300_000);
});
