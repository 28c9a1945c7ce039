import { join } from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME_FAMILY, ACME_WOFF2, pngBytes, upload } from "../assets/support.ts";
import {
  apiClient,
  dragOnFrame,
  type EditorHarness,
  editorPixels,
  haveChromium,
  inCI,
  renderThroughApi,
  SCREENSHOTS,
  signUp,
  startEditorHarness,
  straightRgba,
  waitSaved,
} from "./harness.ts";

/**
 * The properties side of the editor (issue 22): each control edits the document (checked as JSON)
 * and the engine draws the change (checked in the engine's pixels through the page's test hook).
 */

interface AnyLayer {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  [key: string]: unknown;
}

const W = 400;
const H = 300;

function propsCard() {
  return {
    version: 2,
    key: "props-card",
    name: "Properties card",
    slots: [{ name: "badge", type: "text" }],
    frames: [
      {
        name: "main",
        width: W,
        height: H,
        background: "#FFFFFF",
        layers: [
          {
            id: "bar",
            type: "shape",
            shape: "rectangle",
            x: 20,
            y: 20,
            width: 360,
            height: 60,
            fill: {
              type: "linear",
              angle: 90,
              stops: [
                { offset: 0, color: "#FF0000" },
                { offset: 1, color: "#0000FF" },
              ],
            },
          },
          {
            id: "box",
            type: "shape",
            shape: "rectangle",
            x: 40,
            y: 120,
            width: 100,
            height: 100,
            fill: "#22C55E",
          },
          {
            id: "title",
            type: "text",
            x: 160,
            y: 100,
            width: 230,
            height: 60,
            text: "Hello",
            font: { family: "Inter", weight: 700, size: 40 },
            color: "#111827",
          },
          { id: "photo", type: "image", x: 180, y: 150, width: 200, height: 150, src: "" },
        ],
      },
    ],
  };
}

async function currentDoc(page: Page): Promise<{ frames: { layers: AnyLayer[] }[]; palette?: string[] }> {
  return page.evaluate(() =>
    (window as unknown as { __pictor: { currentDocument(): never } }).__pictor.currentDocument(),
  );
}

async function layer(page: Page, id: string): Promise<AnyLayer> {
  const found = (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === id);
  if (!found) throw new Error(`no layer ${id}`);
  return found;
}

/** Straight RGBA of the frame drawn by the editor's engine at scale 1. */
async function rgba(page: Page, values: Record<string, string> = {}): Promise<Buffer> {
  return straightRgba(await editorPixels(page, "main", values, 1));
}

function px(buf: Buffer, x: number, y: number): number[] {
  const i = (Math.round(y) * W + Math.round(x)) * 4;
  return [...buf.subarray(i, i + 4)];
}

/** Pixels of a box matching a test. */
function count(
  buf: Buffer,
  box: { x: number; y: number; width: number; height: number },
  test: (p: number[]) => boolean,
) {
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(H, box.y + box.height); y++)
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(W, box.x + box.width); x++)
      if (test(px(buf, x, y))) n++;
  return n;
}

/**
 * Form controls and buttons with no accessible name in the page: not inside a <label>, not named by
 * aria-label / aria-labelledby / label[for], and (buttons) without text. Returned as short HTML.
 */
async function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll("input, select, textarea, button"))) {
      if ((el as HTMLInputElement).type === "hidden") continue;
      const named =
        el.getAttribute("aria-label") ||
        el.getAttribute("aria-labelledby") ||
        el.closest("label") ||
        (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
        (el.tagName === "BUTTON" && (el.textContent ?? "").trim() !== "") ||
        el.getAttribute("title");
      if (!named) out.push(el.outerHTML.slice(0, 160));
    }
    return out;
  });
}

const dark = (p: number[]) => (p[0] ?? 255) < 80 && (p[1] ?? 255) < 80 && (p[2] ?? 255) < 80;

if (!haveChromium && !inCI) {
  console.warn("[editor properties e2e] SKIPPED: /usr/bin/chromium is not installed.");
}

describe.skipIf(!haveChromium && !inCI)("editor properties (document v2 controls) in Chromium", () => {
  let h: EditorHarness;
  let key = "";
  let templateId = "";

  beforeAll(async () => {
    h = await startEditorHarness();
    key = await signUp(h.page, h.url, "Properties e2e");
    await h.page.getByTestId("continue").click();
    const created = await apiClient(h.url, key)<{ id: string }>("/v1/templates", {
      body: { document: propsCard() },
    });
    templateId = created.id;
    await h.page.goto(`${h.url}/#/t/${templateId}`);
    await h.page.getByTestId("editor").waitFor({ timeout: 90_000 });
  }, 240_000);

  afterAll(async () => {
    await h?.close();
  }, 60_000);

  it("drags a gradient stop on the bar: the stop's offset changes and so do the pixels", async () => {
    const { page } = h;
    const before = await rgba(page);
    // A quarter of the way along, the gradient is still mostly red with some blue.
    expect(px(before, 110, 50)[2]).toBeGreaterThan(40);
    await page.locator('[data-layer="bar"]').click();
    const bar = await page.getByTestId("prop-fill-bar").boundingBox();
    const stop = await page.getByTestId("prop-fill-stop-0").boundingBox();
    if (!bar || !stop) throw new Error("no gradient bar");
    await page.mouse.move(stop.x + stop.width / 2, stop.y + stop.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width * 0.3, stop.y + stop.height / 2, { steps: 4 });
    await page.mouse.move(bar.x + bar.width * 0.5, stop.y + stop.height / 2, { steps: 4 });
    await page.mouse.up();
    await page.screenshot({ path: join(SCREENSHOTS, "editor-gradient.png") });
    const fill = (await layer(page, "bar")).fill as { stops: { offset: number; color: string }[] };
    expect(fill.stops[0]?.offset).toBeGreaterThan(0.45);
    expect(fill.stops[0]?.offset).toBeLessThan(0.55);
    expect(fill.stops[1]).toEqual({ offset: 1, color: "#0000FF" });
    // The left half is now solid red.
    const after = await rgba(page);
    expect(px(after, 110, 50)).toEqual([255, 0, 0, 255]);
    // Keyboard: the focused stop moves by 1 % per arrow key.
    await page.getByTestId("prop-fill-stop-0").focus();
    await page.keyboard.press("ArrowRight");
    const moved = (await layer(page, "bar")).fill as { stops: { offset: number }[] };
    expect(moved.stops[0]?.offset).toBeCloseTo((fill.stops[0]?.offset ?? 0) + 0.01, 5);
  });

  it("adds a drop shadow and edits it", async () => {
    const { page } = h;
    expect(px(await rgba(page), 145, 225)).toEqual([255, 255, 255, 255]);
    await page.locator('[data-layer="box"]').click();
    await page.getByTestId("shadow-add").click();
    await page.getByTestId("shadow-0-x").fill("10");
    await page.getByTestId("shadow-0-y").fill("10");
    await page.getByTestId("shadow-0-blur").fill("0");
    await page.getByTestId("shadow-0-color").fill("#000000");
    expect((await layer(page, "box")).shadows).toEqual([{ x: 10, y: 10, blur: 0, color: "#000000" }]);
    // The shadow shows below and right of the box.
    expect(px(await rgba(page), 145, 225)).toEqual([0, 0, 0, 255]);
  });

  it("gives the text an outline (text stroke)", async () => {
    const { page } = h;
    const red = (p: number[]) => (p[0] ?? 0) > 200 && (p[1] ?? 255) < 60 && (p[2] ?? 255) < 60;
    const area = { x: 160, y: 100, width: 230, height: 60 };
    expect(count(await rgba(page), area, red)).toBe(0);
    await page.locator('[data-layer="title"]').click();
    await page.getByTestId("stroke-on").check();
    await page.getByTestId("prop-stroke.color").fill("#FF0000");
    await page.getByTestId("prop-stroke.width").fill("6");
    expect((await layer(page, "title")).stroke).toEqual({ color: "#FF0000", width: 6 });
    await page.screenshot({ path: join(SCREENSHOTS, "editor-text-props.png") });
    expect(count(await rgba(page), area, red)).toBeGreaterThan(100);
  });

  it("shows a layer only when a slot has a value (visible_when)", async () => {
    const { page } = h;
    await page.locator('[data-layer="box"]').click();
    await page.getByTestId("cond-slot").selectOption("badge");
    expect((await layer(page, "box")).visible_when).toEqual({ slot: "badge", is: "non_empty" });
    expect(px(await rgba(page), 90, 170)).toEqual([255, 255, 255, 255]);
    expect(px(await rgba(page, { badge: "new" }), 90, 170)).toEqual([0x22, 0xc5, 0x5e, 255]);
    await page.getByTestId("cond-test").selectOption("equals");
    await page.getByTestId("cond-value").fill("yes");
    expect((await layer(page, "box")).visible_when).toEqual({ slot: "badge", equals: "yes" });
    expect(px(await rgba(page, { badge: "new" }), 90, 170)).toEqual([255, 255, 255, 255]);
    expect(px(await rgba(page, { badge: "yes" }), 90, 170)).toEqual([0x22, 0xc5, 0x5e, 255]);
    // Back to always, for the tests that follow.
    await page.getByTestId("cond-slot").selectOption("");
    expect((await layer(page, "box")).visible_when).toBeUndefined();
  });

  /**
   * The identity guarantee: once the draft is saved and published, the API renders it as the editor
   * draws it, byte for byte. Returns the editor's render.
   */
  async function publishedMatchesEditor(page: typeof h.page, url: string) {
    await waitSaved(page);
    await apiClient(url, key)(`/v1/templates/${templateId}/publish`, { body: {} });
    const api = await renderThroughApi(url, key, {
      template: "props-card",
      frame: "main",
      scale: 1,
      modifications: [],
    });
    const editor = await editorPixels(page, "main", {}, 1);
    expect((await straightRgba(editor)).equals(api.rgba), "editor pixels differ from the API PNG").toBe(true);
    return editor;
  }

  it("picks a font in the font picker (searched, previewed in its own face): the face changes the pixels", async () => {
    const { page } = h;
    const before = await editorPixels(page, "main", {}, 1);
    await page.locator('[data-layer="title"]').click();
    await page.getByTestId("font-picker-open").click();
    await page.getByTestId("font-search").fill("playfair");
    const option = page.getByTestId("font-option-Playfair Display");
    // Shown in its own face: the preview FontFace loaded.
    await page.locator('[data-testid="font-option-Playfair Display"][data-face^="pictor-preview"]').waitFor();
    expect(await page.locator(".font-option").count()).toBe(1);
    await page.getByTestId("font-search").fill("");
    await page.screenshot({ path: join(SCREENSHOTS, "editor-font-picker.png") });
    await page.getByTestId("font-search").fill("playfair");
    await option.click();
    const title = await layer(page, "title");
    expect(title.font).toEqual({ family: "Playfair Display", weight: 700, size: 40 });
    const after = await editorPixels(page, "main", {}, 1);
    expect(after.sha256).not.toBe(before.sha256);
    expect(after.warnings).toEqual([]);
  });

  it("uploads a font from the picker and draws it as the API renders it", async () => {
    const { page, url } = h;
    await page.locator('[data-layer="title"]').click();
    await page.getByTestId("font-picker-open").click();
    await page.getByTestId("font-upload").setInputFiles({
      name: "acme.woff2",
      mimeType: "font/woff2",
      buffer: Buffer.from(ACME_WOFF2),
    });
    await page.getByText(`Uploaded ${ACME_FAMILY}`).waitFor({ timeout: 30_000 });
    expect(((await layer(page, "title")).font as { family: string }).family).toBe(ACME_FAMILY);
    // Offered in the list, marked as the account's own.
    await page.getByTestId(`font-option-${ACME_FAMILY}`).getByText("uploaded").waitFor();
    // The identity guarantee: the published draft renders through the API as the editor draws it.
    const editor = await publishedMatchesEditor(page, url);
    expect(editor.imageErrors).toEqual([]);
    // Back to a shipped family for the tests that follow.
    await page.getByTestId("font-search").fill("playfair");
    await page.getByTestId("font-option-Playfair Display").click();
    expect(((await layer(page, "title")).font as { family: string }).family).toBe("Playfair Display");
  });

  it("groups the catalogue by category and fetches a family's faces when the document first names it, drawn as the API renders it", async () => {
    const { page, url } = h;
    const fetched: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/editor/fonts/Caveat_")) fetched.push(request.url());
    });
    await page.locator('[data-layer="title"]').click();
    await page.getByTestId("font-picker-open").click();
    const headings = await page
      .locator(".font-category")
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-testid")));
    expect(headings.slice(0, 6)).toEqual(
      ["sans", "serif", "display", "mono", "script", "handwriting"].map((c) => `font-category-${c}`),
    );
    await page.getByTestId("font-search").fill("caveat");
    // Only the handwriting group is left, and the picker previews the family in its regular face.
    expect(await page.locator(".font-category").count()).toBe(1);
    await page.locator('[data-testid="font-option-Caveat"][data-face^="pictor-preview"]').waitFor();
    expect(fetched.some((u) => u.includes("700Bold"))).toBe(false);
    await page.getByTestId("font-option-Caveat").click();
    expect((await layer(page, "title")).font).toEqual({ family: "Caveat", weight: 700, size: 40 });
    const editor = await publishedMatchesEditor(page, url);
    // Its bold face came when the document named it, and the editor drew what the API draws.
    expect(fetched.some((u) => u.includes("Caveat_700Bold.ttf"))).toBe(true);
    expect(editor.warnings).toEqual([]);
    // A family nobody has: once saved, the bar says so (the API's font_unknown warning).
    await page.evaluate(() =>
      (
        window as unknown as { __pictor: { editLayer(id: string, patch: unknown): Promise<number> } }
      ).__pictor.editLayer("title", { font: { family: "Nobody's Grotesk", weight: 700, size: 40 } }),
    );
    await waitSaved(page);
    await page.getByTestId("font-warnings").getByText("Nobody's Grotesk").waitFor();
    await page.getByTestId("font-picker-open").click();
    await page.getByTestId("font-search").fill("playfair");
    await page.getByTestId("font-option-Playfair Display").click();
    await waitSaved(page);
    expect(await page.getByTestId("font-warnings").count()).toBe(0);
  });

  it("searches the icon set and adds the picked icon as a layer", async () => {
    const { page } = h;
    await page.getByTestId("add-layer").click();
    await page.getByTestId("add-icon").click();
    await page.getByTestId("icon-search").fill("heart");
    await page.screenshot({ path: join(SCREENSHOTS, "editor-icon-picker.png") });
    await page.getByTestId("icon-heart").click();
    const icon = (await currentDoc(page)).frames[0]?.layers.find((l) => l.type === "icon");
    expect(icon).toMatchObject({ id: "icon-1", icon: "heart", color: "#111827" });
    if (!icon) throw new Error("no icon layer");
    expect(count(await rgba(page), icon, dark)).toBeGreaterThan(50);
    // The icon form changes it through the same picker.
    await page.getByTestId("icon-change").click();
    await page.getByTestId("icon-search").fill("star");
    await page.getByTestId("icon-star").click();
    expect((await layer(page, "icon-1")).icon).toBe("star");
    // Out of the way of the next layers.
    await page.keyboard.press("Delete");
  });

  it("adds a QR code from the add-layer menu and sets its value", async () => {
    const { page } = h;
    await page.getByTestId("add-layer").click();
    await page.getByTestId("add-qr").click();
    await page.getByTestId("prop-value").fill("https://pictor.dev/qr-test");
    const qr = await layer(page, "qr-1");
    expect(qr).toMatchObject({ type: "qr", value: "https://pictor.dev/qr-test" });
    const first = await rgba(page);
    expect(count(first, qr, dark)).toBeGreaterThan(200);
    await page.getByTestId("prop-value").fill("https://pictor.dev/another");
    const second = await rgba(page);
    expect(second.equals(first)).toBe(false);
    await page.locator('[data-layer="qr-1"]').click();
    await page.keyboard.press("Delete");
    expect((await currentDoc(page)).frames[0]?.layers.some((l) => l.id === "qr-1")).toBe(false);
  });

  it("names a duplicate after its original (rect-2, not shape-1)", async () => {
    const { page } = h;
    await page.getByTestId("tool-rectangle").click();
    await dragOnFrame(page, "main", { x: 20, y: 230 }, { x: 80, y: 280 });
    expect((await layer(page, "rect-1")).fill).toBe("#6366F1");
    const before = await rgba(page);
    expect(px(before, 95, 295)).toEqual([255, 255, 255, 255]);
    await page.keyboard.press("Control+d");
    const ids = (await currentDoc(page)).frames[0]?.layers.map((l) => l.id);
    expect(ids).toContain("rect-2");
    expect(await layer(page, "rect-2")).toMatchObject({ x: 40, y: 250, width: 60, height: 50 });
    expect(px(await rgba(page), 95, 295)).toEqual([0x63, 0x66, 0xf1, 255]);
  });

  it("adds a line, polygon, star, path, barcode and rating from the menu, each drawn and editable", async () => {
    const { page } = h;
    const kinds = ["line", "polygon", "star", "path", "barcode", "rating"] as const;
    for (const kind of kinds) {
      await page.getByTestId("add-layer").click();
      await page.getByTestId(`add-${kind}`).click();
      const added = await layer(page, `${kind}-1`);
      expect(added.type).toBe(kind);
      // Drawn: hiding it changes the frame.
      const hidden = await straightRgba(
        await page.evaluate(
          (args) =>
            (
              window as unknown as { __pictor: { renderRGBA(o: unknown): Promise<never> } }
            ).__pictor.renderRGBA(args),
          {
            frame: "main",
            scale: 1,
            bytes: true,
            document: {
              ...(await currentDoc(page)),
              frames: (await currentDoc(page)).frames.map((f) => ({
                ...f,
                layers: f.layers.map((l) => (l.id === added.id ? { ...l, visible: false } : l)),
              })),
            },
          },
        ),
      );
      const shown = await rgba(page);
      expect(shown.equals(hidden), `${kind} draws nothing`).toBe(false);
    }
    // Each has its own form: one property each, through the panel.
    await page.locator('[data-layer="polygon-1"]').click();
    await page.getByTestId("prop-sides").fill("3");
    expect((await layer(page, "polygon-1")).sides).toBe(3);
    await page.locator('[data-layer="star-1"]').click();
    await page.getByTestId("prop-points").fill("8");
    expect((await layer(page, "star-1")).points).toBe(8);
    await page.locator('[data-layer="barcode-1"]').click();
    await page.getByTestId("prop-value").fill("HELLO-42");
    expect((await layer(page, "barcode-1")).value).toBe("HELLO-42");
    await page.locator('[data-layer="rating-1"]').click();
    await page.getByTestId("prop-value").fill("2");
    expect((await layer(page, "rating-1")).value).toBe("2");
    const before = await rgba(page);
    await page.getByTestId("prop-rating-shape").selectOption("heart");
    expect((await layer(page, "rating-1")).shape).toBe("heart");
    expect((await rgba(page)).equals(before)).toBe(false);
    // Out of the way of the tests that follow.
    for (const kind of kinds) {
      await page.locator(`[data-layer="${kind}-1"]`).click();
      await page.keyboard.press("Delete");
    }
    expect((await currentDoc(page)).frames[0]?.layers.map((l) => l.id)).toEqual([
      "bar",
      "box",
      "title",
      "photo",
      "rect-1",
      "rect-2",
    ]);
  });

  it("outlines an empty image layer over the canvas (the pixels stay the API's: nothing drawn)", async () => {
    const { page } = h;
    expect((await layer(page, "photo")).src).toBe("");
    expect(await page.getByTestId("empty-layer-photo").isVisible()).toBe(true);
    expect(px(await rgba(page), 300, 200)).toEqual([255, 255, 255, 255]);
  });

  it("reports the warnings of an API render at the chosen scale, whatever the zoom", async () => {
    const { page, url } = h;
    // 300×300 source in a 200×150 box: enough at scale 1, upscaled at scale 2.
    const uploaded = await upload({ url }, key, await pngBytes(300, "#3366CC"), {}, "photo.png");
    expect(uploaded.status).toBe(201);
    await page.locator('[data-layer="photo"]').click();
    await page.getByTestId("prop-src").fill(uploaded.body.id);
    await page.getByTestId("empty-layer-photo").waitFor({ state: "detached" });
    expect(px(await rgba(page), 300, 200)).toEqual([0x33, 0x66, 0xcc, 255]);
    // Filters: full grayscale makes the blue grey.
    await page.getByTestId("filter-grayscale").fill("1");
    expect((await layer(page, "photo")).filters).toEqual({ grayscale: 1 });
    const grey = px(await rgba(page), 300, 200);
    expect(grey[0]).toBe(grey[1]);
    expect(grey[1]).toBe(grey[2]);
    await page.getByTestId("filter-grayscale").fill("0");
    expect((await layer(page, "photo")).filters).toBeUndefined();
    while ((await page.getByTestId("zoom").textContent()) !== "200%")
      await page.getByTitle("Zoom in (+)").click();
    // What the canvas draws at 200 % (scale 2) warns; a scale-1 API render does not.
    const atTwo = await editorPixels(page, "main", {}, 2);
    expect(atTwo.warnings.map((w) => w.code)).toContain("image_upscaled");
    await page.getByTestId("tab-preview").click();
    const list = page.getByTestId("warnings");
    await list.getByText("No warnings").waitFor();
    expect(await list.textContent()).not.toContain("image_upscaled");
    await page.getByTestId("warnings-scale").selectOption("2");
    await list.getByText("image_upscaled").waitFor();
    await page.getByTestId("warnings-scale").selectOption("1");
    await list.getByText("No warnings").waitFor();
    await page.getByRole("button", { name: "Fit" }).click();
  });

  it("builds a signed on-demand URL in the Get URL tab (creating a signing key) that serves the image", async () => {
    const { page, url } = h;
    await waitSaved(page);
    await apiClient(url, key)(`/v1/templates/${templateId}/publish`, { body: {} });
    await page.reload();
    await page.getByTestId("editor").waitFor({ timeout: 90_000 });
    await page.getByTestId("tab-url").click();
    await page.getByTestId("create-signing-key").click();
    const signed = (await page.getByTestId("signed-url").textContent()) ?? "";
    expect(signed).toMatch(new RegExp(`^${url}/i/usk_[A-Za-z0-9]+/props-card\\.png\\?sig=[0-9a-f]{64}$`));
    const keys = await apiClient(url, key)<{ data: { id: string }[] }>("/v1/url-signing-keys");
    expect(keys.data).toHaveLength(1);
    const res = await fetch(signed);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([W, H]);
    expect(data.equals(await rgba(page)), "the URL's image differs from the editor's pixels").toBe(true);
    // With a preview value, the URL carries it (signed).
    await page.getByTestId("tab-preview").click();
    await page.getByTestId("preview-badge").fill("Hi there");
    await page.getByTestId("tab-url").click();
    await page.getByTestId("signed-url").filter({ hasText: "badge=Hi%20there" }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "editor-get-url.png") });
    const withValue = (await page.getByTestId("signed-url").textContent()) ?? "";
    expect((await fetch(withValue)).status).toBe(200);
  });

  it("starts a template from a design, and marks a card whose draft differs from the live version", async () => {
    const { page, url } = h;
    await page.goto(`${url}/#/templates`);
    const card = page.locator('[data-testid="template-card"][data-key="props-card"]');
    // Published in the test before, unchanged since: the thumbnail shows the live version.
    await card.locator('[data-testid="draft-status"][data-status="live"]').waitFor();
    const call = apiClient(url, key);
    const detail = await call<{ document: { name: string } }>(`/v1/templates/${templateId}`);
    await call(`/v1/templates/${templateId}`, {
      method: "PUT",
      body: { document: { ...detail.document, name: "Properties card, edited" } },
    });
    await page.reload();
    await card.locator('[data-testid="draft-status"][data-status="changed"]').waitFor();
    expect(await card.getByTestId("draft-status").textContent()).toContain("unpublished changes");

    await page.getByTestId("new-template").click();
    await page.getByTestId("new-template-dialog").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "new-template.png") });
    await page.getByTestId("new-from-props-card").click();
    await page.getByTestId("editor").waitFor({ timeout: 90_000 });
    const doc = (await currentDoc(page)) as unknown as { key: string; frames: { layers: AnyLayer[] }[] };
    expect(doc.key).toMatch(/^props-card-[a-z0-9]+$/);
    expect(doc.frames[0]?.layers.map((l) => l.id)).toContain("title");
    const copy = await editorPixels(page, "main", {}, 1);
    await page.goto(`${url}/#/t/${templateId}`);
    await page.getByTestId("editor").waitFor({ timeout: 90_000 });
    expect(copy.sha256).toBe((await editorPixels(page, "main", {}, 1)).sha256);
  });

  it("keeps the brand palette in the template document: undoable, saved, shown in another browser", async () => {
    const { page, url, browser } = h;
    await page.goto(`${url}/#/t/${templateId}`);
    await page.getByTestId("editor").waitFor({ timeout: 90_000 });
    await page.keyboard.press("Escape");
    const before = await rgba(page);
    const inPalette = (p: Page, color: string) =>
      p.getByTestId("palette").getByRole("button", { name: `Remove ${color} from the palette` });
    await page.getByTestId("palette-input").fill("#7c3aed");
    await page.getByTestId("palette-add").click();
    await page.getByTestId("palette-input").fill("#F59E0B80");
    await page.getByTestId("palette-input").press("Enter");
    expect((await currentDoc(page)).palette).toEqual(["#7C3AED", "#F59E0B80"]);
    await inPalette(page, "#F59E0B80").waitFor();
    // Offered first by the colour fields (here the frame's background), and never drawn.
    await page
      .getByRole("button", { name: /: use #7C3AED$/ })
      .first()
      .waitFor();
    expect((await rgba(page)).equals(before), "a palette changed the pixels").toBe(true);
    // An edit like any other: undone and redone one colour at a time.
    await page.getByTitle("Undo (Ctrl+Z)").click();
    expect((await currentDoc(page)).palette).toEqual(["#7C3AED"]);
    await page.getByTitle("Redo (Ctrl+Shift+Z)").click();
    expect((await currentDoc(page)).palette).toEqual(["#7C3AED", "#F59E0B80"]);
    await waitSaved(page);
    const call = apiClient(url, key);
    const saved = await call<{ document: { palette?: string[] } }>(`/v1/templates/${templateId}`);
    expect(saved.document.palette).toEqual(["#7C3AED", "#F59E0B80"]);
    const storedPalettes = (p: Page) =>
      p.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("pictor.palette.")));
    expect(await storedPalettes(page)).toEqual([]);

    // Another browser (a fresh context: its own, empty localStorage) sees the palette of the document.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const other = await context.newPage();
      await other.goto(url);
      await other.getByTestId("signin-key").fill(key);
      await other.getByTestId("signin").click();
      await other.getByTestId("template-grid").waitFor();
      expect(await other.evaluate(() => localStorage.length)).toBe(0);
      await other.goto(`${url}/#/t/${templateId}`);
      await other.getByTestId("editor").waitFor({ timeout: 90_000 });
      await inPalette(other, "#7C3AED").waitFor();
      await inPalette(other, "#F59E0B80").waitFor();
      await other
        .getByRole("button", { name: /: use #F59E0B80$/ })
        .first()
        .waitFor();

      // A palette an earlier editor kept in this browser's localStorage joins the document once.
      await other.evaluate(
        (id) => localStorage.setItem(`pictor.palette.${id}`, JSON.stringify(["#7C3AED", "#0EA5E9"])),
        templateId,
      );
      await other.reload();
      await other.getByTestId("editor").waitFor({ timeout: 90_000 });
      await inPalette(other, "#0EA5E9").waitFor();
      expect((await currentDoc(other)).palette).toEqual(["#7C3AED", "#F59E0B80", "#0EA5E9"]);
      await waitSaved(other);
      const migrated = await call<{ document: { palette?: string[] } }>(`/v1/templates/${templateId}`);
      expect(migrated.document.palette).toEqual(["#7C3AED", "#F59E0B80", "#0EA5E9"]);
      expect(await storedPalettes(other)).toEqual([]);
      // Not an undo step of its own: nothing to undo right after opening.
      expect(await other.getByTitle("Undo (Ctrl+Z)").isDisabled()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("names every control of the properties panels, pickers and tabs (for assistive technology)", async () => {
    const { page, url } = h;
    await page.goto(`${url}/#/t/${templateId}`);
    await page.getByTestId("editor").waitFor({ timeout: 90_000 });
    const seen: string[] = [];
    const check = async (where: string) => {
      for (const html of await unnamedControls(page)) seen.push(`${where}: ${html}`);
    };
    for (const id of ["bar", "box", "title", "photo"]) {
      await page.locator(`[data-layer="${id}"]`).click();
      await check(id);
    }
    await page.locator('[data-layer="title"]').click();
    await page.getByTestId("stroke-on").check();
    await page.getByTestId("highlight-on").check();
    await page.getByTestId("font-picker-open").click();
    await check("font picker");
    await page.getByTestId("font-picker-open").click();
    await page.locator('[data-layer="box"]').click();
    await page.getByTestId("shadow-add").click();
    await page.getByTestId("mask-kind").selectOption("rounded");
    await page.getByTestId("cond-slot").selectOption("badge");
    await page.getByTestId("prop-fill-kind").selectOption("radial");
    await check("box with effects");
    await page.getByTestId("add-layer").click();
    await check("add-layer menu");
    await page.getByTestId("add-icon").click();
    await check("icon picker");
    await page.getByRole("dialog", { name: "Icons" }).getByRole("button", { name: "Close" }).click();
    for (const tab of ["preview", "api", "url"]) {
      await page.getByTestId(`tab-${tab}`).click();
      await check(`${tab} tab`);
    }
    await page.getByTestId("tab-design").click();
    await page.locator('[data-layer="box"]').click();
    await page.keyboard.press("Escape");
    await check("frame and template");
    expect(seen).toEqual([]);
  });
});
