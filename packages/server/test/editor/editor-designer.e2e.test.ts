import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME_FAMILY, ACME_WOFF2 } from "../assets/support.ts";
import { currentDoc, type LayerJson, openEditor, signedUp } from "./canvas-support.ts";
import { CHROMIUM, type EditorHarness, haveChromium, inCI, startEditorHarness } from "./harness.ts";

/**
 * What a designer does without leaving the canvas: copy a post to several sizes at once with the
 * layers kept where they belong (smart resize, constraints), make a slot from a layer where it is
 * bound, and drop or paste images and fonts into the editor.
 */
function post(key: string) {
  return {
    version: 3,
    key,
    name: key,
    slots: [],
    frames: [
      {
        name: "post",
        width: 1000,
        height: 1000,
        background: "#FFFFFF",
        layers: [
          {
            id: "bg",
            type: "shape",
            shape: "rectangle",
            x: 0,
            y: 0,
            width: 1000,
            height: 1000,
            fill: "#FDE68A",
          },
          {
            id: "logo",
            type: "shape",
            shape: "ellipse",
            x: 40,
            y: 40,
            width: 100,
            height: 100,
            fill: "#1D4ED8",
          },
          {
            id: "badge",
            type: "shape",
            shape: "rectangle",
            x: 860,
            y: 860,
            width: 100,
            height: 100,
            fill: "#DC2626",
          },
          {
            id: "tag",
            type: "shape",
            shape: "rectangle",
            x: 40,
            y: 860,
            width: 100,
            height: 100,
            fill: "#059669",
          },
          {
            id: "title",
            type: "text",
            x: 100,
            y: 400,
            width: 800,
            height: 200,
            text: "Summer sale",
            font: { family: "Inter", weight: 700, size: 80 },
            color: "#111827",
            align: "center",
          },
        ],
      },
    ],
  };
}

const box = (l: LayerJson | undefined) => (l ? [l.x, l.y, l.width, l.height] : null);

async function engineSha(page: Page, frame: string): Promise<string> {
  return page.evaluate(
    (f) =>
      (window as unknown as { __pictor: { renderRGBA(o: unknown): Promise<{ sha256: string }> } }).__pictor
        .renderRGBA({ frame: f, scale: 1 })
        .then((r) => r.sha256),
    frame,
  );
}

/** Dispatches a drop of one file (bytes from the test) at a point of the page, as a file manager's drag ends. */
async function dropFile(
  page: Page,
  selector: string,
  at: { x: number; y: number } | null,
  file: { name: string; type: string; base64: string },
) {
  await page.evaluate(
    ({ selector, at, file }) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], file.name, { type: file.type }));
      const target = document.querySelector(selector) as HTMLElement;
      const r = target.getBoundingClientRect();
      const point = at ?? { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      const init = { bubbles: true, cancelable: true, dataTransfer: dt, clientX: point.x, clientY: point.y };
      target.dispatchEvent(new DragEvent("dragover", init));
      target.dispatchEvent(new DragEvent("drop", init));
    },
    { selector, at, file },
  );
}

if (!haveChromium && !inCI) console.warn(`[editor designer e2e] SKIPPED: ${CHROMIUM} is not installed.`);

describe.skipIf(!haveChromium && !inCI)("editor: designing without detours", () => {
  let h: EditorHarness;
  let call: Awaited<ReturnType<typeof signedUp>>["call"];
  beforeAll(async () => {
    h = await startEditorHarness();
    ({ call } = await signedUp(h.page, h.url, "Designer e2e"));
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  async function open(document: unknown): Promise<string> {
    const created = await call<{ id: string }>("/v1/templates", { body: { document } });
    await openEditor(h.page, h.url, created.id);
    return created.id;
  }

  it("smart resize: a post copied to a story and a landscape at once keeps every layer where it belongs", async () => {
    const { page } = h;
    await open(post("smart-resize"));
    // The tag is pinned to the right by hand; the others keep their inferred constraints.
    await page.locator('[data-layer="tag"] .layer-select').click();
    const pinAcross = page.getByTestId("prop-constraint-h");
    expect(await pinAcross.locator("option:checked").textContent()).toBe("Auto (Left)");
    await pinAcross.selectOption("right");
    expect((await currentDoc(page)).frames[0]?.layers[3]?.constraints).toEqual({ horizontal: "right" });

    await page.getByTestId("add-frame").click();
    await page.getByTestId("frame-from").selectOption("0");
    await page.getByTestId("pick-1080x1920").check();
    await page.getByTestId("pick-1920x1080").check();
    expect(await page.getByTestId("add-sizes").textContent()).toBe("Add 2 sizes");
    await page.getByTestId("add-sizes").click();
    const doc = await currentDoc(page);
    expect(doc.frames.map((f) => [f.name, f.width, f.height])).toEqual([
      ["post", 1000, 1000],
      ["story", 1080, 1920],
      ["landscape", 1920, 1080],
    ]);
    const at = (frame: number, id: string) => box(doc.frames[frame]?.layers.find((l) => l.id === id));
    // Story (content scale 1.08): the background covers the frame, the logo stays top-left, the
    // badge bottom-right, the title centred (no room to spread across: the story is as wide as the
    // post scaled).
    expect(at(1, "bg")).toEqual([0, 0, 1080, 1920]);
    expect(at(1, "logo")).toEqual([43, 43, 108, 108]);
    expect(at(1, "badge")).toEqual([929, 1769, 108, 108]);
    expect(at(1, "title")).toEqual([108, 852, 864, 216]);
    // Landscape (content scale 1.08): spread across, scaled down.
    expect(at(2, "bg")).toEqual([0, 0, 1920, 1080]);
    expect(at(2, "badge")).toEqual([1769, 929, 108, 108]);
    expect(at(2, "title")).toEqual([528, 432, 864, 216]);
    // The tag, pinned right by hand, keeps its (scaled) margin to the right edge; the logo, left.
    expect(at(2, "tag")).toEqual([883, 929, 108, 108]);
    expect(at(2, "logo")).toEqual([43, 43, 108, 108]);
    // One step: a single undo takes both frames away.
    await page.keyboard.press("Control+z");
    expect((await currentDoc(page)).frames).toHaveLength(1);
  });

  it("new slot from this layer: named after it, its content as default, bound, the pixels unchanged", async () => {
    const { page } = h;
    await open(post("new-slot"));
    const before = await engineSha(page, "post");
    await page.locator('[data-layer="title"] .layer-select').click();
    await page.getByTestId("bind-text").selectOption({ label: "+ New slot from this layer" });
    let doc = await currentDoc(page);
    expect(doc.slots).toEqual([{ name: "title", type: "text", default: "Summer sale" }]);
    expect(doc.frames[0]?.layers.find((l) => l.id === "title")?.bind).toEqual({ text: "title" });
    expect(await page.getByTestId("bind-text").inputValue()).toBe("title");
    // From the context menu: the badge's fill becomes a colour slot.
    await page.locator('[data-layer="badge"] .layer-select').click({ button: "right" });
    await page.getByTestId("context-newslot-fill").click();
    doc = await currentDoc(page);
    expect(doc.slots[1]).toEqual({ name: "badge", type: "color", default: "#DC2626" });
    expect(doc.frames[0]?.layers.find((l) => l.id === "badge")?.bind).toEqual({ fill: "badge" });
    expect(await engineSha(page, "post")).toBe(before);
  });

  it("a PNG dropped on the canvas or pasted becomes an image layer backed by a library asset; a font dropped on the picker is uploaded and used", async () => {
    const { page } = h;
    await open(post("drop-files"));
    const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: "#7C3AED" } })
      .png()
      .toBuffer();
    const overlay = page.getByTestId("frame-overlay-post");
    const ov = await overlay.boundingBox();
    if (!ov) throw new Error("no frame");
    const zoom = Number(await overlay.getAttribute("data-zoom"));
    const file = { name: "promo.png", type: "image/png", base64: png.toString("base64") };
    await dropFile(page, ".stage-wrap", { x: ov.x + 300 * zoom, y: ov.y + 700 * zoom }, file);
    await expect
      .poll(async () => (await currentDoc(page)).frames[0]?.layers.filter((l) => l.type === "image").length, {
        timeout: 15_000,
      })
      .toBe(1);
    const dropped = (await currentDoc(page)).frames[0]?.layers.find((l) => l.type === "image") as LayerJson;
    // Natural size (400 x 200 fits in 60 % of the frame), centred where it was dropped.
    expect(box(dropped)).toEqual([100, 600, 400, 200]);
    const id = /^asset:\/\/(ast_[A-Za-z0-9]+)$/.exec(String(dropped.src))?.[1];
    expect(id).toBeDefined();
    const asset = await call<{ id: string; folder: string; content_type: string }>(`/v1/assets/${id}`);
    expect(asset).toMatchObject({ id, folder: "uploads/", content_type: "image/png" });
    // The canvas draws it: the pixel at the drop point is the picture's violet.
    await page.waitForFunction(
      () => (window as unknown as { __pictor: { lastRenderTimings(): unknown } }).__pictor !== undefined,
    );
    const pixel = await page.evaluate(async () => {
      const r = await (
        window as unknown as {
          __pictor: {
            renderRGBA(o: unknown): Promise<{ base64: string; width: number; imageErrors?: string[] }>;
          };
        }
      ).__pictor.renderRGBA({ frame: "post", scale: 1, bytes: true });
      const bytes = Uint8Array.from(atob(r.base64), (c) => c.charCodeAt(0));
      const i = (700 * r.width + 300) * 4;
      return [bytes[i], bytes[i + 1], bytes[i + 2]];
    });
    expect(pixel).toEqual([0x7c, 0x3a, 0xed]);

    // Pasted (a screenshot on the clipboard): at the frame's centre.
    await page.evaluate((file) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], "shot.png", { type: file.type }));
      document.body.dispatchEvent(
        new ClipboardEvent("paste", { bubbles: true, cancelable: true, clipboardData: dt }),
      );
    }, file);
    await expect
      .poll(async () => (await currentDoc(page)).frames[0]?.layers.filter((l) => l.type === "image").length, {
        timeout: 15_000,
      })
      .toBe(2);
    const pasted = (await currentDoc(page)).frames[0]?.layers.filter((l) => l.type === "image")[1];
    expect(box(pasted)).toEqual([300, 400, 400, 200]);

    // A font file dropped on the text layer's font picker: uploaded into fonts/ and used.
    await page.locator('[data-layer="title"] .layer-select').click();
    await dropFile(page, '[data-testid="font-picker-drop"]', null, {
      name: "acme.woff2",
      type: "font/woff2",
      base64: Buffer.from(ACME_WOFF2).toString("base64"),
    });
    const titleFamily = async () => {
      const title = (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === "title");
      return (title?.font as { family?: string } | undefined)?.family;
    };
    await expect.poll(titleFamily, { timeout: 15_000 }).toBe(ACME_FAMILY);
    const fonts = await call<{ data: { folder: string; font: { family: string } }[] }>("/v1/assets/fonts");
    expect(fonts.data.map((f) => [f.folder, f.font.family])).toContainEqual(["fonts/", ACME_FAMILY]);
  });

  it("PDF export: the editor's PDF page, rasterised by pdftoppm, equals the API's PDF of the frame", async () => {
    const { page, url } = h;
    const id = await open(post("pdf-export"));
    await call(`/v1/templates/${id}/publish`, { body: {} });
    const job = await call<{ status: string; output_url: string | null }>("/v1/renders", {
      body: { template: "pdf-export", frame: "post", format: "pdf", wait: true, modifications: [] },
    });
    expect(job.status).toBe("completed");
    const apiPdf = Buffer.from(await (await fetch(new URL(job.output_url ?? "", url))).arrayBuffer());

    await page.getByTestId("export").click();
    const dialog = page.getByTestId("export-dialog");
    await dialog.waitFor();
    expect(await dialog.getAttribute("role")).toBe("dialog");
    await page.getByTestId("export-format").selectOption("pdf");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("export-run").click(),
    ]);
    expect(download.suggestedFilename()).toBe("pdf-export-post.pdf");
    const editorPdf = readFileSync((await download.path()) ?? "");
    expect(editorPdf.subarray(0, 5).toString()).toBe("%PDF-");

    const dir = mkdtempSync(join(tmpdir(), "pictor-export-"));
    try {
      const raster = (name: string, pdf: Buffer) => {
        writeFileSync(join(dir, `${name}.pdf`), pdf);
        // 96 dpi: one device pixel per frame pixel (the page is the frame at 96 dpi).
        execFileSync("pdftoppm", ["-r", "96", "-singlefile", join(dir, `${name}.pdf`), join(dir, name)]);
        return readFileSync(join(dir, `${name}.ppm`));
      };
      const fromApi = raster("api", apiPdf);
      const fromEditor = raster("editor", editorPdf);
      expect(fromApi.subarray(0, 16).toString()).toContain("1000 1000");
      expect(fromEditor.equals(fromApi), "the editor's PDF page differs from the API's").toBe(true);
      // The words are there to select and search, as in the API's PDF.
      const words = execFileSync("pdftotext", [join(dir, "editor.pdf"), "-"]).toString();
      expect(words).toContain("Summer sale");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.keyboard.press("Escape");
    expect(await dialog.count()).toBe(0);
  });
});
