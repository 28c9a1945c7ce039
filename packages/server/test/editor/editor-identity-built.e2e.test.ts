import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME_FAMILY, ACME_WOFF2, upload } from "../assets/support.ts";
import { currentDoc, type LayerJson, openEditor, signedUp } from "./canvas-support.ts";
import {
  dragOnFrame,
  type EditorHarness,
  editorPixels,
  haveChromium,
  inCI,
  renderThroughApi,
  SCREENSHOTS,
  startEditorHarness,
  straightRgba,
  waitSaved,
} from "./harness.ts";

const gradient = (angle: number, a: string, b: string) => ({
  type: "linear",
  angle,
  stops: [
    { offset: 0, color: a },
    { offset: 1, color: b },
  ],
});

/** A template whose layers are copied into the new design (copy and paste between templates). */
function library() {
  return {
    version: 2,
    key: "library",
    name: "Library",
    slots: [],
    frames: [
      {
        name: "main",
        width: 1200,
        height: 630,
        background: "#FFFFFF",
        layers: [
          {
            id: "panel",
            type: "shape",
            shape: "rectangle",
            x: 760,
            y: 80,
            width: 360,
            height: 240,
            corner_radius: 24,
            fill: gradient(135, "#2563EB", "#9333EA"),
            shadows: [{ x: 0, y: 12, blur: 24, color: "#0F172A66" }],
          },
          {
            id: "badge",
            type: "star",
            points: 6,
            x: 820,
            y: 360,
            width: 160,
            height: 160,
            fill: {
              type: "radial",
              center: { x: 0.5, y: 0.5 },
              radius: 0.5,
              stops: [
                { offset: 0, color: "#FDE047" },
                { offset: 1, color: "#F97316" },
              ],
            },
            shadows: [{ x: 4, y: 6, blur: 10, color: "#00000055" }],
            blend_mode: "multiply",
          },
        ],
      },
    ],
  };
}

async function doubleClickAt(page: Page, frame: string, x: number, y: number) {
  const overlay = page.getByTestId(`frame-overlay-${frame}`);
  const r = await overlay.boundingBox();
  if (!r) throw new Error("no frame overlay");
  const zoom = Number(await overlay.getAttribute("data-zoom"));
  await page.mouse.dblclick(r.x + x * zoom, r.y + y * zoom);
}

async function selectInArea(page: Page, from: number, to: number) {
  await page.getByTestId("inline-text-area").evaluate(
    (el: HTMLTextAreaElement, [a, b]) => {
      el.focus();
      el.setSelectionRange(a as number, b as number);
    },
    [from, to],
  );
}

const walk = (layers: readonly LayerJson[]): LayerJson[] =>
  layers.flatMap((l) => [l, ...walk((l.layers as LayerJson[] | undefined) ?? [])]);

if (!haveChromium && !inCI)
  console.warn("[editor identity e2e] SKIPPED: /usr/bin/chromium is not installed.");

describe.skipIf(!haveChromium && !inCI)(
  "a template built in the editor renders as the editor draws it",
  () => {
    let h: EditorHarness;
    beforeAll(async () => {
      h = await startEditorHarness();
    }, 180_000);
    afterAll(async () => {
      await h?.close();
    }, 60_000);

    it("builds v2 layers (pasted gradients and shadows, rich text, an uploaded font, a resized frame) and matches the API's PNG byte for byte", async () => {
      const { page, url } = h;
      const { key, call } = await signedUp(page, url, "Built in the editor");
      expect((await upload({ url }, key, ACME_WOFF2, {}, "acme.woff2")).status).toBe(201);
      const lib = await call<{ id: string }>("/v1/templates", { body: { document: library() } });

      // Copy the library's layers in the editor.
      await openEditor(page, url, lib.id);
      await page.keyboard.press("Control+a");
      await page.keyboard.press("Control+c");

      // A new template from the template list; paste, centre on the frame, group.
      await page.goto(`${url}/#/templates`);
      await page.getByTestId("new-template").click();
      // "New template" opens a dialog: blank frames or a starter design.
      await page.getByTestId("new-blank-og").click();
      await page.getByTestId("editor").waitFor({ timeout: 90_000 });
      await page.keyboard.press("Control+v");
      await page.getByTestId("arrange-bar").waitFor();
      await page.getByTestId("align-to-frame").check();
      await page.getByTestId("align-middle").click();
      await page.keyboard.press("Control+g");

      // A headline bound to a rich text slot, typed in place and styled from the toolbar.
      await page.getByTestId("tool-text").click();
      await dragOnFrame(page, "main", { x: 80, y: 60 }, { x: 700, y: 260 });
      await page.getByTestId("tab-slots").click();
      await page.getByTestId("add-slot-text").click();
      await page.getByTestId("slot-rich-text1").check();
      await page.getByTestId("tab-design").click();
      await page.getByTestId("bind-text").selectOption("text1");
      // Inside the headline's first line: a new text box's height hugs its text (one line, from y 60).
      await doubleClickAt(page, "main", 300, 85);
      await page.getByTestId("rich-toolbar").waitFor();
      await page.keyboard.type("Launch day is here");
      await selectInArea(page, 7, 10);
      await page.keyboard.press("Control+i");
      await selectInArea(page, 14, 18);
      await page.getByTestId("rich-color-value").fill("#dc2626");
      await page.getByTestId("rich-color").click();
      await page.keyboard.press("Escape");

      // A second text in the account's uploaded font.
      await page.getByTestId("tool-text").click();
      await dragOnFrame(page, "main", { x: 80, y: 400 }, { x: 700, y: 540 });
      // The font picker lists the account's uploaded family after the shipped ones.
      await page.getByTestId("font-picker-open").click();
      await page.getByTestId(`font-option-${ACME_FAMILY}`).click();
      await doubleClickAt(page, "main", 300, 425);
      await page.getByTestId("inline-text-area").waitFor();
      await page.keyboard.type("BRAND 2026");
      await page.keyboard.press("Escape");

      // A square frame that starts as the main frame resized.
      await page.getByTestId("add-frame").click();
      await page.getByTestId("frame-from").selectOption("0");
      await page.getByTestId("preset-1080x1080").click();
      await page.getByTestId("frame-overlay-square").waitFor();
      await waitSaved(page);
      await page.screenshot({ path: join(SCREENSHOTS, "editor-built.png") });

      const doc = await currentDoc(page);
      const all = doc.frames.flatMap((f) => walk(f.layers));
      expect(doc.frames.map((f) => [f.name, f.width, f.height])).toEqual([
        ["main", 1200, 630],
        ["square", 1080, 1080],
      ]);
      expect(doc.frames[0]?.layers.map((l) => l.type)).toEqual(["group", "text", "text"]);
      expect(doc.frames[1]?.layers.map((l) => l.type)).toEqual(["group", "text", "text"]);
      expect(all.filter((l) => typeof l.fill === "object" && l.fill !== null)).toHaveLength(4);
      expect(all.filter((l) => Array.isArray(l.shadows))).toHaveLength(4);
      expect(doc.slots).toEqual([{ name: "text1", type: "text", rich: true }]);
      const headline = doc.frames[0]?.layers[1];
      expect(headline?.text).toBe('Launch <i>day</i> is <color value="#DC2626">here</color>');
      expect(headline?.bind).toEqual({ text: "text1" });
      expect((doc.frames[0]?.layers[2]?.font as { family: string } | undefined)?.family).toBe(ACME_FAMILY);
      expect(doc.frames[0]?.layers[2]?.text).toBe("BRAND 2026");

      // Publish, then every frame through the API (at two scales) against the editor's pixels.
      await page.getByTestId("tab-publish").click();
      await page.getByTestId("publish-panel-button").click();
      await page.getByTestId("versions").locator("li").first().waitFor();
      for (const [frame, scale] of [
        ["main", 1],
        ["square", 1],
        ["main", 2],
      ] as const) {
        const api = await renderThroughApi(url, key, { template: doc.key, frame, scale, modifications: [] });
        const editor = await editorPixels(page, frame, {}, scale);
        expect(editor.imageErrors).toEqual([]);
        // Drawn in the uploaded face, not a fallback.
        expect(editor.warnings.map((w) => w.code)).not.toContain("glyph_fallback");
        expect([editor.width, editor.height]).toEqual([api.width, api.height]);
        const rgba = await straightRgba(editor);
        expect(rgba.equals(api.rgba), `${frame} @${scale}: API PNG differs from the editor's pixels`).toBe(
          true,
        );
      }
    }, 300_000);
  },
);
