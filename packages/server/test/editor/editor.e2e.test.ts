import { join } from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME_FAMILY, ACME_WOFF2, fontCard, upload } from "../assets/support.ts";
import {
  apiClient,
  type DocumentLike,
  dragOnFrame,
  type EditorHarness,
  editorPixels,
  haveChromium,
  inCI,
  modificationsOf,
  renderThroughApi,
  SCREENSHOTS,
  signUp,
  startEditorHarness,
  straightRgba,
  waitSaved,
} from "./harness.ts";

interface LayerLike {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation?: number;
  bind?: Record<string, string>;
}

type EditedDoc = Omit<DocumentLike, "frames"> & {
  frames: { name: string; width: number; height: number; layers: LayerLike[] }[];
};

async function currentDoc(page: Page): Promise<EditedDoc> {
  return page.evaluate(() =>
    (window as unknown as { __pictor: { currentDocument(): never } }).__pictor.currentDocument(),
  );
}

function layerOf(doc: EditedDoc, frame: string, type: string): LayerLike {
  const found = doc.frames.find((f) => f.name === frame)?.layers.find((l) => l.type === type);
  if (!found) throw new Error(`no ${type} layer in ${frame}`);
  return found;
}

/** Asset references (`asset://ast_…`) found anywhere in the starter templates' documents. */
async function starterAssets(call: ReturnType<typeof apiClient>): Promise<string[]> {
  const list = await call<{ data: { id: string }[] }>("/v1/templates?include_drafts=true&limit=200");
  const found = new Set<string>();
  for (const t of list.data) {
    const detail = await call<{ document: unknown }>(`/v1/templates/${t.id}`);
    for (const m of JSON.stringify(detail.document).matchAll(/asset:\/\/(ast_[A-Za-z0-9]+)/g))
      found.add(m[1] as string);
  }
  return [...found];
}

const GRADIENT = {
  type: "linear",
  angle: 90,
  stops: [
    { offset: 0, color: "#2563EB" },
    { offset: 0.5, color: "#9333EA" },
    { offset: 1, color: "#F43F5E" },
  ],
};

/**
 * A document v2 with what v1 had no word for: a gradient paint, drop shadows, a blend mode and layer
 * kinds the editor has no controls for yet (a gradient-filled polygon, an icon).
 */
function v2Card() {
  return {
    version: 2,
    key: "v2-card",
    name: "V2 card",
    slots: [{ name: "accent", type: "color", default: "#DC2626" }],
    frames: [
      {
        name: "main",
        width: 480,
        height: 300,
        background: "#FFFFFF",
        layers: [
          {
            id: "card",
            type: "shape",
            shape: "rectangle",
            x: 40,
            y: 40,
            width: 200,
            height: 140,
            corner_radius: 16,
            fill: "#2563EB",
            shadows: [{ x: 6, y: 8, blur: 12, color: "#0F172A66" }],
          },
          {
            id: "badge",
            type: "polygon",
            sides: 6,
            x: 290,
            y: 60,
            width: 140,
            height: 140,
            fill: GRADIENT,
            stroke: { color: "#78350F", width: 4 },
            shadows: [{ x: 0, y: 6, blur: 10, color: "#00000055" }],
            blend_mode: "multiply",
            bind: { "fill.stops[2].color": "accent" },
          },
          {
            id: "heart",
            type: "icon",
            icon: "heart",
            x: 60,
            y: 200,
            width: 80,
            height: 80,
            color: "#16A34A",
            bind: { color: "accent" },
          },
        ],
      },
    ],
  };
}

/** Straight RGBA of one frame pixel. */
function pixelAt(rgba: Buffer, width: number, x: number, y: number): number[] {
  const i = (y * width + x) * 4;
  return [...rgba.subarray(i, i + 4)];
}

/**
 * One server and one browser for both journeys: the editor build (Vite, into packages/editor/dist)
 * happens once, so no other test file may rebuild the dist while this one serves it.
 */
if (!haveChromium && !inCI) {
  console.warn("[editor e2e] SKIPPED: /usr/bin/chromium is not installed. Under CI=true this is a failure.");
}

describe.skipIf(!haveChromium && !inCI)(
  "editor in Chromium against pictor serve: API pixels equal editor pixels",
  () => {
    let h: EditorHarness;
    let key = "";

    beforeAll(async () => {
      h = await startEditorHarness();
    }, 180_000);

    afterAll(async () => {
      await h?.close();
    }, 60_000);

    it("signs up, designs two frames with a text, an image and three bound slots, publishes, and renders identically", async () => {
      const { page, url } = h;
      await page.goto(url);
      await page.getByTestId("signup").waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, "sign-in.png") });

      // Everything the page loads comes from this server, under a policy that allows no other script.
      const index = await fetch(url);
      expect(index.headers.get("content-type")).toMatch(/^text\/html/);
      expect(index.headers.get("content-security-policy")).toContain("script-src 'self'");
      const fonts = (await (await fetch(`${url}/editor/fonts.json`)).json()) as { faces: { url: string }[] };
      expect(fonts.faces.length).toBeGreaterThan(40);
      const font = await fetch(new URL(fonts.faces[0]?.url ?? "", url));
      expect(font.headers.get("content-type")).toBe("font/ttf");
      const wasm = await fetch(`${url}/editor/engine/canvaskit.wasm`);
      expect(wasm.headers.get("content-type")).toBe("application/wasm");
      expect((await fetch(`${url}/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
      expect((await fetch(`${url}/editor/fonts/..%2F..%2Fpackage.json`)).status).toBe(404);

      key = await signUp(page, url, "Editor e2e");
      expect(key).toMatch(/^sk_live_/);
      await page.getByTestId("continue").click();
      await page.getByTestId("template-card").first().waitFor();
      await page.waitForFunction(
        () => document.querySelectorAll('.thumb[data-state="loading"]').length === 0,
        null,
        {
          timeout: 90_000,
        },
      );
      // Every thumbnail has settled; each must have drawn (a failed one names its template and why).
      const failed = await page
        .locator('[data-testid="template-card"]:has(.thumb[data-state="failed"])')
        .evaluateAll((cards) =>
          cards.map(
            (c) => `${c.getAttribute("data-key")}: ${c.querySelector(".thumb span")?.getAttribute("title")}`,
          ),
        );
      expect(failed).toEqual([]);
      expect(await page.locator('.thumb[data-state="ready"]').count()).toBe(
        await page.getByTestId("template-card").count(),
      );
      await page.screenshot({ path: join(SCREENSHOTS, "templates.png") });

      const call = apiClient(url, key);
      const assets = await starterAssets(call);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      const apiAsset = assets[0] as string;

      // New template, second frame from a preset.
      await page.getByTestId("new-template").click();
      await page.getByTestId("new-blank-og").click();
      await page.getByTestId("editor").waitFor({ timeout: 90_000 });
      await page.getByTestId("add-frame").click();
      await page.getByTestId("preset-1080x1080").click();
      await page.getByTestId("frame-overlay-square").waitFor();

      // Text: drag a box on the first frame, then type.
      await page.getByTestId("tool-text").click();
      await dragOnFrame(page, "main", { x: 80, y: 80 }, { x: 700, y: 260 });
      await page.getByTestId("prop-text").fill("Launch day is here");
      // Image: drag a box, give it a starter asset.
      await page.getByTestId("tool-image").click();
      await dragOnFrame(page, "main", { x: 760, y: 60 }, { x: 1140, y: 570 });
      // Upload an image through the asset library and pick it.
      const upload = await sharp({
        create: { width: 300, height: 400, channels: 3, background: { r: 30, g: 120, b: 200 } },
      })
        .composite([
          {
            input: await sharp({ create: { width: 150, height: 150, channels: 3, background: "#F59E0B" } })
              .png()
              .toBuffer(),
            left: 75,
            top: 125,
          },
        ])
        .png()
        .toBuffer();
      await page.getByTestId("choose-asset").click();
      await page.getByTestId("asset-picker").getByTestId("asset").first().waitFor();
      await page
        .getByTestId("asset-picker")
        .getByPlaceholder("Folder (e.g. starter/)")
        .fill("designs/launch");
      await page.getByTestId("asset-picker").getByPlaceholder("Tag").fill("launch");
      await page.getByTestId("asset-picker").locator('input[type="file"]').setInputFiles({
        name: "launch.png",
        mimeType: "image/png",
        buffer: upload,
      });
      await page.getByTestId("asset-picker").waitFor({ state: "detached" });
      const uploaded = await call<{ data: { id: string; folder: string; tags: string[] }[] }>(
        "/v1/assets/query",
        {
          body: { tags: { all: ["launch"] } },
        },
      );
      expect(uploaded.data).toHaveLength(1);
      expect(uploaded.data[0]?.folder).toBe("designs/launch/");
      const designAsset = uploaded.data[0]?.id as string;
      await page.getByTestId("choose-asset").click();
      await page.getByTestId("asset-picker").getByPlaceholder("Folder (e.g. starter/)").fill("starter/");
      await page.getByTestId("asset-picker").getByTestId("asset").nth(2).waitFor();
      await page.waitForFunction(
        () =>
          document.querySelectorAll(".asset-thumb").length > 0 &&
          document.querySelectorAll(".asset-thumb:not([data-ready])").length === 0,
      );
      await page.screenshot({ path: join(SCREENSHOTS, "asset-library.png") });
      await page.getByTestId("asset-picker").getByRole("button", { name: "Close" }).click();
      // Rectangle on the second frame.
      await page.getByTestId("tool-rectangle").click();
      await dragOnFrame(page, "square", { x: 140, y: 140 }, { x: 940, y: 700 });

      let doc = await currentDoc(page);
      expect((layerOf(doc, "main", "image") as LayerLike & { src: string }).src).toBe(
        `asset://${designAsset}`,
      );
      const text = layerOf(doc, "main", "text");
      expect(text).toMatchObject({ x: 80, y: 80, width: 620, height: 180 });
      const image = layerOf(doc, "main", "image");
      const rect = layerOf(doc, "square", "shape");
      expect(rect).toMatchObject({ x: 140, y: 140, width: 800, height: 560 });

      // Move with the pointer: the centre snaps to the frame's vertical centre line (540).
      await dragOnFrame(page, "square", { x: 540, y: 420 }, { x: 543, y: 520 });
      doc = await currentDoc(page);
      expect(layerOf(doc, "square", "shape")).toMatchObject({ x: 140, y: 240 });
      // Resize from the bottom-right handle, rotate from the rotation handle, undo the rotation.
      const handle = page.getByTestId("handle-1,1");
      const hb = await handle.boundingBox();
      if (!hb) throw new Error("no resize handle");
      await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
      await page.mouse.down();
      await page.mouse.move(hb.x + hb.width / 2 - 40, hb.y + hb.height / 2 + 20, { steps: 5 });
      await page.mouse.up();
      doc = await currentDoc(page);
      const resized = layerOf(doc, "square", "shape");
      expect(resized.width).toBeLessThan(800);
      expect(resized.height).toBeGreaterThan(560);
      const rot = await page.getByTestId("handle-rotate").boundingBox();
      if (!rot) throw new Error("no rotation handle");
      const sel = await page.getByTestId("selection-box").boundingBox();
      if (!sel) throw new Error("no selection box");
      await page.mouse.move(rot.x + rot.width / 2, rot.y + rot.height / 2);
      await page.mouse.down();
      await page.mouse.move(sel.x + sel.width + 200, sel.y + sel.height / 2, { steps: 6 });
      await page.mouse.up();
      doc = await currentDoc(page);
      expect(layerOf(doc, "square", "shape").rotation).toBe(90);
      await page.keyboard.press("Control+z");
      doc = await currentDoc(page);
      expect(layerOf(doc, "square", "shape").rotation ?? 0).toBe(0);
      expect(layerOf(doc, "square", "shape").width).toBe(resized.width);
      // Keyboard: Shift+Arrow nudges 10, Ctrl+D duplicates (selecting the copy), Delete removes it.
      await page.keyboard.press("Shift+ArrowRight");
      doc = await currentDoc(page);
      expect(layerOf(doc, "square", "shape").x).toBe(150);
      await page.keyboard.press("Control+d");
      doc = await currentDoc(page);
      // The copy is named after its original (rect-1 -> rect-2).
      expect(doc.frames[1]?.layers.map((l) => l.id)).toEqual([rect.id, "rect-2"]);
      await page.keyboard.press("Delete");
      await page.keyboard.press("ArrowLeft");
      doc = await currentDoc(page);
      expect(doc.frames[1]?.layers.map((l) => l.id)).toEqual([rect.id]);
      expect(layerOf(doc, "square", "shape").x).toBe(150);
      await page.keyboard.press("Control+Shift+z");
      doc = await currentDoc(page);
      expect(doc.frames[1]?.layers.map((l) => l.id)).toEqual([rect.id]);

      // Slots: one of each kind, bound from the properties panel.
      await page.getByTestId("tab-slots").click();
      await page.getByTestId("add-slot-text").click();
      await page.getByTestId("add-slot-image").click();
      await page.getByTestId("add-slot-color").click();
      await page.locator(`[data-layer="${text.id}"]`).click();
      await page.getByTestId("bind-text").selectOption("text1");
      await page.locator(`[data-layer="${image.id}"]`).click();
      await page.getByTestId("bind-src").selectOption("image1");
      await page.locator(`[data-layer="${rect.id}"]`).click();
      await page.getByTestId("bind-fill").selectOption("colour1");
      await waitSaved(page);
      doc = await currentDoc(page);
      expect(doc.slots.map((s) => `${s.type}:${s.name}`)).toEqual([
        "text:text1",
        "image:image1",
        "color:colour1",
      ]);
      expect(layerOf(doc, "main", "text").bind).toEqual({ text: "text1" });
      expect(layerOf(doc, "main", "image").bind).toEqual({ src: "image1" });
      expect(layerOf(doc, "square", "shape").bind).toEqual({ fill: "colour1" });
      await page.screenshot({ path: join(SCREENSHOTS, "editor-design.png") });

      // A text slot can be declared rich (its values are markup); unticked, the flag is gone again.
      await page.getByTestId("tab-slots").click();
      await page.getByTestId("slot-rich-text1").check();
      await waitSaved(page);
      expect((await currentDoc(page)).slots[0]).toMatchObject({ name: "text1", rich: true });
      await page.getByTestId("slot-rich-text1").uncheck();
      await waitSaved(page);
      expect((await currentDoc(page)).slots[0]).not.toHaveProperty("rich");

      // Preview values, then publish.
      const values = { text1: "Hello from the API, at any length", image1: apiAsset, colour1: "#10B981" };
      await page.getByTestId("tab-preview").click();
      await page.getByTestId("preview-text1").fill(values.text1);
      await page.getByTestId("preview-image1").fill(values.image1);
      await page.getByTestId("preview-colour1").fill(values.colour1);
      await page.getByTestId("tab-publish").click();
      await page.getByTestId("publish-panel-button").click();
      await page.getByTestId("versions").locator("li").first().waitFor();
      expect(await page.getByTestId("versions").locator("li").count()).toBe(1);

      // Each frame through the API (what `curl` would send), against the editor's engine pixels.
      doc = await currentDoc(page);
      for (const [frame, scale] of [
        ["main", 1],
        ["square", 1],
        ["square", 2],
        ["main", 1.5],
      ] as const) {
        const api = await renderThroughApi(url, key, {
          template: doc.key,
          frame,
          scale,
          modifications: modificationsOf(doc, values),
        });
        const editor = await editorPixels(page, frame, values, scale);
        expect(editor.imageErrors).toEqual([]);
        expect([api.width, api.height]).toEqual([editor.width, editor.height]);
        const editorRgba = await straightRgba(editor);
        expect(editorRgba.length).toBe(api.rgba.length);
        expect(
          editorRgba.equals(api.rgba),
          `${frame} @${scale}: API PNG differs from the editor's pixels`,
        ).toBe(true);
      }

      // Try the API panel: real render, cost, credits left, curl.
      await page.getByTestId("tab-api").click();
      await page.getByTestId("try-render").click();
      await page.getByTestId("try-result").waitFor({ timeout: 60_000 });
      await page
        .locator(".try-image")
        .evaluate((img: HTMLImageElement) =>
          img.complete ? undefined : new Promise((r) => img.addEventListener("load", r, { once: true })),
        );
      expect(await page.getByTestId("try-cost").textContent()).toBe("1 credit");
      const account = await call<{ credits_balance: number }>("/v1/account");
      expect(await page.getByTestId("try-credits").textContent()).toBe(String(account.credits_balance));
      expect(await page.getByTestId("try-curl").textContent()).toContain(`"template": "${doc.key}"`);
      await page.screenshot({ path: join(SCREENSHOTS, "editor-try-api.png") });

      await page.goto(`${url}/#/account`);
      await page.getByTestId("balance").waitFor();
      await page.locator(".badge.charge").first().waitFor();
      // Newest first: the top row is the account's latest entry (the Try-the-API render's charge).
      const newest = await call<{ data: { render_id: string | null }[] }>(
        "/v1/account/ledger?order=desc&limit=1",
      );
      expect(await page.locator(".account tbody tr").first().locator(".mono").textContent()).toBe(
        newest.data[0]?.render_id,
      );
      await page.getByRole("button", { name: "Show secret" }).click();
      const secret = (await page.locator(".secret").first().textContent()) ?? "";
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole("button", { name: "Rotate" }).click();
      await page.locator(".secret").filter({ hasNotText: secret }).first().waitFor();
      await page.getByPlaceholder("Key name (optional)").fill("CI key");
      await page.getByRole("button", { name: "Create key" }).click();
      expect(await page.getByTestId("created-key").textContent()).toMatch(/^sk_live_/);
      await page.screenshot({ path: join(SCREENSHOTS, "account.png") });

      // Template list: duplicate, then archive the copy.
      await page.goto(`${url}/#/templates`);
      const cards = page.getByTestId("template-card");
      await cards.first().waitFor();
      const before = await cards.count();
      await page.locator(`[data-key="${doc.key}"]`).getByRole("button", { name: "Duplicate" }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="template-card"]').length === n + 1,
        before,
      );
      const copy = page.locator(`[data-key^="${doc.key}-"]`);
      await copy.getByRole("button", { name: "Archive" }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="template-card"]').length === n,
        before,
      );
    }, 300_000);

    it("opens each starter in the editor and matches the API's PNG for each frame with its sample values", async () => {
      const { page, url } = h;
      // A second account (its own 30 credits): sign out, sign up again through the UI.
      await page.goto(`${url}/#/templates`);
      await page.getByTestId("sign-out").click();
      await page.getByTestId("signup").waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      const key = await signUp(page, url, "Starter identity");
      await page.getByTestId("continue").click();
      const call = apiClient(url, key);
      const list = await call<{ data: { id: string; key: string }[] }>("/v1/templates?limit=200");
      expect(list.data.length).toBeGreaterThanOrEqual(6);

      const checked: string[] = [];
      for (const template of list.data) {
        await page.goto(`${url}/#/t/${template.id}`);
        await page.getByTestId("editor").waitFor({ timeout: 90_000 });
        const doc = (await page.evaluate(() =>
          (window as unknown as { __pictor: { currentDocument(): unknown } }).__pictor.currentDocument(),
        )) as DocumentLike;
        expect(doc.key).toBe(template.key);
        const values = doc.sample ?? {};
        for (const frame of doc.frames) {
          const api = await renderThroughApi(url, key, {
            template: doc.key,
            frame: frame.name,
            scale: 1,
            modifications: modificationsOf(doc, values),
          });
          const editor = await editorPixels(page, frame.name, values, 1);
          expect(editor.imageErrors).toEqual([]);
          expect([editor.width, editor.height]).toEqual([api.width, api.height]);
          const rgba = await straightRgba(editor);
          expect(
            rgba.equals(api.rgba),
            `${doc.key}/${frame.name}: API PNG differs from the editor's pixels`,
          ).toBe(true);
          checked.push(`${doc.key}/${frame.name}`);
        }
        if (doc.key === "travel-sale-social") {
          await page.getByTestId("layer-row").first().click();
          await page.screenshot({ path: join(SCREENSHOTS, "editor-starter.png") });
          await page.getByTestId("tab-preview").click();
          await page.screenshot({ path: join(SCREENSHOTS, "editor-preview.png") });
        }
      }
      expect(checked.length).toBeGreaterThanOrEqual(7);

      // Sign out from the editor, then sign in with the key.
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByTestId("signin-key").fill("sk_live_not-a-key");
      await page.getByTestId("signin").click();
      await page.getByText("That key is not valid.").waitFor();
      await page.getByTestId("signin-key").fill(key);
      await page.getByTestId("signin").click();
      await page.getByTestId("template-grid").waitFor();
    }, 300_000);

    it("draws a template in the account's uploaded font exactly as the API renders it", async () => {
      const { page, url } = h;
      // Signed out (the key lives in sessionStorage only), whatever ran before.
      await page.goto(url);
      await page.evaluate(() => sessionStorage.clear());
      const key = await signUp(page, url, "Custom font");
      await page.getByTestId("continue").click();
      const call = apiClient(url, key);
      expect((await upload({ url }, key, ACME_WOFF2, {}, "acme.woff2")).status).toBe(201);
      const created = await call<{ id: string }>("/v1/templates", {
        body: { document: fontCard("brand-card", ACME_FAMILY), publish: true },
      });

      await page.goto(`${url}/#/t/${created.id}`);
      await page.getByTestId("editor").waitFor({ timeout: 90_000 });
      const values = { title: "BRAND 2026" };
      const api = await renderThroughApi(url, key, {
        template: "brand-card",
        frame: "main",
        scale: 1,
        modifications: [{ name: "title", text: values.title }],
      });
      const editor = await editorPixels(page, "main", values, 1);
      // Drawn in the uploaded face, not a fallback: no warning, and the same pixels as the API.
      expect(editor.warnings).toEqual([]);
      expect([editor.width, editor.height]).toEqual([api.width, api.height]);
      expect((await straightRgba(editor)).equals(api.rgba), "editor pixels differ from the API PNG").toBe(
        true,
      );
      // The family is offered in the text layer's font picker, after the shipped ones.
      await page.getByTestId("layer-row").first().click();
      await page.getByTestId("font-picker-open").click();
      await page.getByTestId(`font-option-${ACME_FAMILY}`).waitFor();
      await page.getByTestId("font-picker-open").click();

      // Another account in the same tab (signed out and up through the UI, no page load) has not
      // uploaded the font: its editor falls back (and warns) exactly as its renders do, instead of
      // drawing the previous account's font.
      await page.goto(`${url}/#/templates`);
      await page.getByTestId("sign-out").click();
      await page.getByTestId("signup-name").fill("No custom font");
      await page.getByTestId("signup").click();
      const other = ((await page.getByTestId("new-api-key").textContent()) ?? "").trim();
      await page.getByTestId("continue").click();
      const otherCard = await apiClient(url, other)<{ id: string }>("/v1/templates", {
        body: { document: fontCard("brand-card", ACME_FAMILY), publish: true },
      });
      await page.goto(`${url}/#/t/${otherCard.id}`);
      await page.getByTestId("editor").waitFor({ timeout: 90_000 });
      const fallbackApi = await renderThroughApi(url, other, {
        template: "brand-card",
        frame: "main",
        scale: 1,
        modifications: [{ name: "title", text: values.title }],
      });
      const fallbackEditor = await editorPixels(page, "main", values, 1);
      expect(fallbackEditor.warnings.map((w) => w.code)).toEqual(["font_missing"]);
      expect(
        (await straightRgba(fallbackEditor)).equals(fallbackApi.rgba),
        "editor pixels differ from the API PNG for the account without the font",
      ).toBe(true);
    }, 300_000);
    it("opens a v2 document with gradients, shadows and new layer kinds, edits common properties, and renders as the API does", async () => {
      const { page, url } = h;
      await page.goto(url);
      await page.evaluate(() => sessionStorage.clear());
      const key = await signUp(page, url, "Document v2");
      await page.getByTestId("continue").click();
      const call = apiClient(url, key);
      const original = v2Card();
      const created = await call<{ id: string }>("/v1/templates", {
        body: { document: original, publish: true },
      });

      await page.goto(`${url}/#/t/${created.id}`);
      await page.getByTestId("editor").waitFor({ timeout: 90_000 });
      const sameAsApi = async (label: string) => {
        const api = await renderThroughApi(url, key, {
          template: "v2-card",
          frame: "main",
          scale: 1,
          modifications: [],
        });
        const editor = await editorPixels(page, "main", {}, 1);
        // The colour slot is not given: its default is used (as the API warns too), nothing else.
        expect([...new Set(editor.warnings.map((w) => w.code))]).toEqual(["slot_default_used"]);
        expect([editor.width, editor.height]).toEqual([api.width, api.height]);
        const rgba = await straightRgba(editor);
        expect(rgba.equals(api.rgba), `${label}: editor pixels differ from the API PNG`).toBe(true);
        return rgba;
      };
      const rgba = await sameAsApi("as created");
      // The gradient runs left to right across the badge (blue, purple, rose, multiplied on white);
      // the icon takes its bound slot's default colour.
      const [left, right] = [pixelAt(rgba, 480, 305, 130), pixelAt(rgba, 480, 415, 130)];
      expect(left[2]).toBeGreaterThan((left[0] ?? 0) + 60);
      expect(right[0]).toBeGreaterThan((right[2] ?? 0) + 20);

      // Layers panel: each kind's icon from the editor's form registry.
      const icon = (id: string) =>
        page.locator(`[data-layer="${id}"] [data-testid="layer-icon"]`).textContent();
      expect([await icon("card"), await icon("badge"), await icon("heart")]).toEqual(["■", "⬟", "☺"]);

      // The shape's form (layer-forms/shape.tsx) and the polygon's (layer-forms/polygon.tsx): the
      // gradient in the gradient editor with its stops and their slot bindings; shadows and blend mode
      // sit with the common effects.
      await page.locator('[data-layer="card"]').click();
      expect(await page.getByTestId("prop-fill").inputValue()).toBe("#2563EB");
      expect(await page.getByTestId("shadow-0-color").inputValue()).toBe("#0F172A66");
      await page.locator('[data-layer="badge"]').click();
      expect(await page.getByTestId("prop-sides").inputValue()).toBe("6");
      expect(await page.getByTestId("prop-fill-paint").getAttribute("data-paint")).toBe("linear");
      expect(await page.getByTestId("prop-fill-bar").locator("button").count()).toBe(3);
      expect(await page.getByTestId("shadow-0-color").inputValue()).toBe("#00000055");
      expect(await page.getByTestId("prop-blend-mode").inputValue()).toBe("multiply");
      await page.getByTestId("prop-fill-stop-2").click();
      expect(await page.getByTestId("bind-fill.stops[2].color").inputValue()).toBe("accent");
      await page.screenshot({ path: join(SCREENSHOTS, "editor-v2.png") });

      // Common properties stay editable on every kind: move the polygon, fade the icon, flip the card.
      await page.getByTestId("prop-x").fill("250");
      await page.getByTestId("prop-stroke.color").fill("#1E3A8A");
      await page.locator('[data-layer="heart"]').click();
      await page.getByTestId("prop-opacity").fill("0.5");
      await page.locator('[data-layer="card"]').click();
      await page.getByTestId("prop-flip-x").check();
      // Duplicating keeps the kind's own properties.
      await page.locator('[data-layer="badge"]').click();
      await page.keyboard.press("Control+d");
      await waitSaved(page);

      const saved = (
        await call<{ document: { frames: { layers: Record<string, unknown>[] }[] } }>(
          `/v1/templates/${created.id}`,
        )
      ).document;
      const [card, v2Badge, v2Heart] = original.frames[0]?.layers ?? [];
      // Stored as document v4: the migration wrote the opaque slot colour v2 drew (alpha 1) for each
      // bound colour, so the template draws the same bytes.
      const badge = { ...v2Badge, bind_colors: { "fill.stops[2].color": { alpha: 1 } } };
      const heart = { ...v2Heart, bind_colors: { color: { alpha: 1 } } };
      expect(saved.frames[0]?.layers).toEqual([
        { ...card, flip_x: true },
        { ...badge, x: 250, stroke: { color: "#1E3A8A", width: 4 } },
        { ...badge, id: "badge-1", x: 270, y: 80, stroke: { color: "#1E3A8A", width: 4 } },
        { ...heart, opacity: 0.5 },
      ]);
      await call(`/v1/templates/${created.id}/publish`, { body: {} });
      const edited = await sameAsApi("after editing");
      expect(edited.equals(rgba)).toBe(false);
    }, 300_000);
  },
);
