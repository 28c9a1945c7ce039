import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upload } from "../assets/support.ts";
import { canvasShowing } from "./canvas-support.ts";
import {
  apiClient,
  type EditorHarness,
  editorPixels,
  haveChromium,
  inCI,
  renderThroughApi,
  signUp,
  startEditorHarness,
  straightRgba,
  waitSaved,
} from "./harness.ts";

/**
 * Three controls of the properties panel, each editing the document (checked as JSON) with the
 * engine's pixels changing as the edit says: the named inline styles of rich text, how a bound
 * colour is applied (`bind_colors`: the design colour's alpha, opaque, a set alpha, a tint) and the image-pattern paint (its image, and the
 * angle and offset fields it shares with the built-in pattern). Last, the API renders the edited
 * template as the editor draws it, byte for byte.
 */

const W = 300;
const H = 200;
const KEY = "style-controls";

function styleCard() {
  return {
    version: 4,
    key: KEY,
    name: "Style controls",
    slots: [
      { name: "accent", type: "color", default: "#FF0000" },
      { name: "headline", type: "text", rich: true, default: "Big word" },
    ],
    frames: [
      {
        name: "main",
        width: W,
        height: H,
        background: "#FFFFFF",
        layers: [
          {
            id: "card",
            type: "shape",
            shape: "rectangle",
            x: 10,
            y: 10,
            width: 80,
            height: 80,
            fill: "#0000FF80",
            bind: { fill: "accent" },
          },
          {
            id: "tiles",
            type: "shape",
            shape: "rectangle",
            x: 110,
            y: 10,
            width: 180,
            height: 80,
            fill: "#22C55E",
          },
          {
            id: "title",
            type: "text",
            x: 10,
            y: 110,
            width: 280,
            height: 80,
            text: "Big word",
            font: { family: "Inter", weight: 400, size: 40 },
            color: "#111827",
            bind: { text: "headline" },
          },
        ],
      },
    ],
  };
}

interface Doc {
  inline_styles?: Record<string, unknown>;
  frames: { layers: { id: string; fill?: unknown; bind_colors?: unknown }[] }[];
}

async function currentDoc(page: Page): Promise<Doc> {
  return page.evaluate(() =>
    (window as unknown as { __pictor: { currentDocument(): never } }).__pictor.currentDocument(),
  );
}

async function layerOf(page: Page, id: string) {
  const found = (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === id);
  if (!found) throw new Error(`no layer ${id}`);
  return found;
}

/** Straight RGBA of the frame the editor's engine draws at scale 1 (with these slot values). */
async function rgba(page: Page, values: Record<string, string> = {}): Promise<Buffer> {
  return straightRgba(await editorPixels(page, "main", values, 1));
}

function px(buf: Buffer, x: number, y: number): number[] {
  const i = (y * W + x) * 4;
  return [...buf.subarray(i, i + 4)];
}

/** Pixels of a box matching a test. */
function count(
  buf: Buffer,
  box: { x: number; y: number; width: number; height: number },
  test: (p: number[]) => boolean,
) {
  let n = 0;
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) if (test(px(buf, x, y))) n++;
  return n;
}

const near = (p: number[], want: number[], tolerance: number) =>
  want.every((v, i) => Math.abs((p[i] ?? -999) - v) <= tolerance);

/** An 8 x 8 PNG, its left half magenta and its right half cyan: a tile whose stripes an angle turns. */
async function stripedTile(): Promise<Uint8Array> {
  const raw = Buffer.alloc(8 * 8 * 3);
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) raw.set(x < 4 ? [255, 0, 255] : [0, 255, 255], (y * 8 + x) * 3);
  return new Uint8Array(
    await sharp(raw, { raw: { width: 8, height: 8, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

const magenta = (p: number[]) => near(p, [255, 0, 255, 255], 8);
const cyan = (p: number[]) => near(p, [0, 255, 255, 255], 8);
const green = (p: number[]) => (p[1] ?? 0) > 160 && (p[0] ?? 255) < 90 && (p[2] ?? 255) < 90;

if (!haveChromium && !inCI) {
  console.warn("[editor style controls e2e] SKIPPED: /usr/bin/chromium is not installed.");
}

describe.skipIf(!haveChromium && !inCI)("editor style controls in Chromium", () => {
  let h: EditorHarness;
  let key = "";
  let templateId = "";
  let asset = "";

  beforeAll(async () => {
    h = await startEditorHarness();
    key = await signUp(h.page, h.url, "Style controls e2e");
    await h.page.getByTestId("continue").click();
    const uploaded = await upload(h, key, await stripedTile(), { name: "tile" }, "tile.png");
    expect(uploaded.status).toBe(201);
    asset = uploaded.body.id as string;
    const created = await apiClient(h.url, key)<{ id: string }>("/v1/templates", {
      body: { document: styleCard() },
    });
    templateId = created.id;
    await h.page.goto(`${h.url}/#/t/${templateId}`);
    await h.page.getByTestId("editor").waitFor({ timeout: 90_000 });
  }, 240_000);

  afterAll(async () => {
    await h?.close();
  }, 60_000);

  it("applies a bound colour at the design colour's alpha, opaque, at a set alpha, then tinted", async () => {
    const { page } = h;
    // The slot's red at the design colour's half alpha, over the white background.
    expect(near(px(await rgba(page), 50, 50), [255, 128, 128, 255], 2)).toBe(true);
    await page.locator('[data-layer="card"]').click();
    await page.getByTestId("color-binding-fill-alpha").selectOption("opaque");
    expect((await layerOf(page, "card")).bind_colors).toEqual({ fill: { alpha: 1 } });
    expect(px(await rgba(page), 50, 50)).toEqual([255, 0, 0, 255]);
    await page.getByTestId("color-binding-fill-alpha").selectOption("set");
    await page.getByTestId("color-binding-fill-alpha-value").fill("0.25");
    expect((await layerOf(page, "card")).bind_colors).toEqual({ fill: { alpha: 0.25 } });
    const quarter = px(await rgba(page), 50, 50);
    expect(near(quarter, [255, 191, 191, 255], 2), `got ${quarter}`).toBe(true);
    await page.getByTestId("color-binding-fill-tint").fill("0.5");
    expect((await layerOf(page, "card")).bind_colors).toEqual({ fill: { alpha: 0.25, tint: 0.5 } });
    const tinted = px(await rgba(page), 50, 50);
    expect(tinted[0]).toBe(255);
    expect(tinted[1] ?? 0).toBeGreaterThan((quarter[1] ?? 0) + 20);
    // A colour from the API applies the same way: a blue slot value comes out light blue.
    const blue = px(await rgba(page, { accent: "#0000FF" }), 50, 50);
    expect(blue[2]).toBe(255);
    expect(blue[0] ?? 0).toBeGreaterThan(200);
  });

  it("fills a shape with an image pattern from the asset library, turned and offset by the shared tile fields", async () => {
    const { page } = h;
    const area = { x: 110, y: 10, width: 180, height: 80 };
    expect(count(await rgba(page), area, magenta)).toBe(0);
    await page.locator('[data-layer="tiles"]').click();
    await page.getByTestId("prop-fill-kind").selectOption("image");
    await page.getByTestId("prop-fill-image-pattern-src").fill(asset);
    await page.getByTestId("prop-fill-image-pattern-size").fill("40");
    expect((await layerOf(page, "tiles")).fill).toEqual({
      type: "pattern",
      image: `asset://${asset}`,
      size: 40,
    });
    const straight = await rgba(page);
    // Vertical stripes: each column of the box is one colour or the other.
    expect(count(straight, area, magenta)).toBeGreaterThan(2000);
    expect(count(straight, area, cyan)).toBeGreaterThan(2000);
    expect(px(straight, 150, 20)).toEqual(px(straight, 150, 80));
    await page.getByTestId("prop-fill-image-pattern-angle").fill("90");
    await page.getByLabel("Offset X", { exact: true }).fill("10");
    expect((await layerOf(page, "tiles")).fill).toEqual({
      type: "pattern",
      image: `asset://${asset}`,
      size: 40,
      angle: 90,
      offset: { x: 10, y: 0 },
    });
    // Turned a quarter: the stripes run across, so a column is no longer one colour.
    const turned = await rgba(page);
    expect(count(turned, area, magenta)).toBeGreaterThan(2000);
    const column = Array.from({ length: 80 }, (_, y) => (magenta(px(turned, 150, 10 + y)) ? 1 : 0));
    expect(new Set(column).size).toBe(2);
  });

  it("adds a named inline style that rich text draws, in the API as in the editor", async () => {
    const { page, url } = h;
    const marked = { headline: "Big <hi>word</hi>" };
    const area = { x: 10, y: 110, width: 280, height: 80 };
    // Nothing selected: the template's properties, with its rich text styles.
    await page.locator(".frame-label button", { hasText: "main" }).click();
    await page.getByTestId("inline-style-name").fill("hi");
    await page.getByTestId("inline-style-add").click();
    await page.getByTestId("inline-style-hi-color").fill("#00C000");
    await page.getByTestId("inline-style-hi-weight").selectOption("900");
    expect((await currentDoc(page)).inline_styles).toEqual({ hi: { color: "#00C000", weight: 900 } });
    // The canvas draws the preview values: with the marked word there, it shows the style's edits
    // (it kept the old colour until an inline style's edit redrew the frames).
    const canvasShowsMarked = async () =>
      canvasShowing(page, "main", (await editorPixels(page, "main", marked, 1)).base64 ?? "");
    await page.getByTestId("tab-preview").click();
    await page.getByTestId("preview-headline").fill(marked.headline);
    await canvasShowsMarked();
    await page.getByTestId("tab-design").click();
    await page.getByTestId("inline-style-hi-color").fill("#0000C0");
    await canvasShowsMarked();
    await page.getByTestId("inline-style-hi-color").fill("#00C000");
    await canvasShowsMarked();
    // The marked word is drawn green; the same text unmarked has no green.
    expect(count(await rgba(page, marked), area, green)).toBeGreaterThan(50);
    expect(count(await rgba(page, { headline: "Big word" }), area, green)).toBe(0);
    // Its colour bound to the accent slot, at an alpha set on the binding (as a layer's bound colours).
    await page.getByTestId("inline-style-hi-color-slot").selectOption("accent");
    await page.getByTestId("inline-style-hi-binding-color-alpha").selectOption("set");
    expect((await currentDoc(page)).inline_styles).toEqual({
      hi: {
        color: "#00C000",
        weight: 900,
        bind: { color: "accent" },
        bind_colors: { color: { alpha: 0.5 } },
      },
    });
    await canvasShowsMarked();
    expect(count(await rgba(page, marked), area, green)).toBe(0);

    // Editor = API: the published template renders as the editor draws it (every edit in it).
    await waitSaved(page);
    await apiClient(url, key)(`/v1/templates/${templateId}/publish`, { body: {} });
    const api = await renderThroughApi(url, key, {
      template: KEY,
      frame: "main",
      scale: 1,
      modifications: [{ name: "headline", text: marked.headline }],
    });
    const editor = await rgba(page, marked);
    expect(editor.equals(api.rgba), "editor pixels differ from the API PNG").toBe(true);
  });
});
