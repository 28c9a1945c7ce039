import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canvasShowsDocument, currentDoc, hex, openEditor, pixelAt, signedUp } from "./canvas-support.ts";
import {
  dragOnFrame,
  type EditorHarness,
  haveChromium,
  inCI,
  SCREENSHOTS,
  startEditorHarness,
} from "./harness.ts";

const rect = (id: string, x: number, y: number, fill: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "shape",
  shape: "rectangle",
  x,
  y,
  width: 100,
  height: 100,
  fill,
  ...extra,
});

/** Four squares: three the marquee touches, one below it. */
function board(key: string) {
  return {
    version: 2,
    key,
    name: key,
    slots: [{ name: "accent", type: "color", default: "#16A34A" }],
    frames: [
      {
        name: "main",
        width: 1000,
        height: 700,
        background: "#FFFFFF",
        layers: [
          rect("a", 100, 100, "#DC2626", { bind: { fill: "accent" } }),
          rect("b", 250, 300, "#2563EB"),
          rect("c", 700, 450, "#F59E0B"),
          { ...rect("d", 450, 610, "#111827"), height: 60 },
        ],
      },
    ],
  };
}

if (!haveChromium && !inCI) console.warn("[editor arrange e2e] SKIPPED: /usr/bin/chromium is not installed.");

describe.skipIf(!haveChromium && !inCI)("editor canvas: multi-selection and arrangement", () => {
  let h: EditorHarness;
  beforeAll(async () => {
    h = await startEditorHarness();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  it("marquee-selects, distributes, aligns, groups, nudges, ungroups, and copies between templates", async () => {
    const { page, url } = h;
    const { call } = await signedUp(page, url, "Arrange e2e");
    const first = await call<{ id: string }>("/v1/templates", { body: { document: board("board-one") } });
    const second = await call<{ id: string }>("/v1/templates", {
      body: {
        document: { ...board("board-two"), slots: [], frames: [{ ...board("x").frames[0], layers: [] }] },
      },
    });
    await openEditor(page, url, first.id);
    const xs = async () => (await currentDoc(page)).frames[0]?.layers.map((l) => [l.id, l.x, l.y]);

    // A vertical guide dragged from the left ruler; a moved layer snaps its right edge to it.
    const overlay = page.getByTestId("frame-overlay-main");
    const ov = await overlay.boundingBox();
    const ruler = await page.getByTestId("ruler-y").boundingBox();
    if (!ov || !ruler) throw new Error("no frame or ruler");
    const zoom = Number(await overlay.getAttribute("data-zoom"));
    await page.mouse.move(ruler.x + ruler.width / 2, ov.y + 300 * zoom);
    await page.mouse.down();
    await page.mouse.move(ov.x + 640 * zoom, ov.y + 300 * zoom, { steps: 4 });
    await page.mouse.up();
    expect(await page.getByTestId("ruler-guide-x").getAttribute("data-at")).toBe("640");
    // Moved 93 px, its right edge would be at 643: it snaps to the guide (nothing else is near).
    await dragOnFrame(page, "main", { x: 500, y: 640 }, { x: 593, y: 640 });
    expect((await currentDoc(page)).frames[0]?.layers[3]).toMatchObject({ id: "d", x: 540, y: 610 });
    await page.keyboard.press("Control+z");
    expect((await currentDoc(page)).frames[0]?.layers[3]).toMatchObject({ id: "d", x: 450, y: 610 });

    // Marquee from an empty corner: touches a, b and c, not d.
    await dragOnFrame(page, "main", { x: 20, y: 20 }, { x: 900, y: 560 });
    expect(await page.getByTestId("selection-member").count()).toBe(3);
    await page.screenshot({ path: join(SCREENSHOTS, "editor-multi-select.png") });

    // Distribute horizontally: the outer squares stay, the gaps become equal (200 px).
    await page.getByTestId("distribute-x").click();
    expect(await xs()).toEqual([
      ["a", 100, 100],
      ["b", 400, 300],
      ["c", 700, 450],
      ["d", 450, 610],
    ]);
    let rgba = await canvasShowsDocument(page, "main");
    expect(hex(pixelAt(rgba, 1000, 450, 350))).toBe("#2563EB");
    expect(hex(pixelAt(rgba, 1000, 300, 350))).toBe("#FFFFFF");

    // Align top (to the selection's top edge, a's).
    await page.getByTestId("align-top").click();
    expect(await xs()).toEqual([
      ["a", 100, 100],
      ["b", 400, 100],
      ["c", 700, 100],
      ["d", 450, 610],
    ]);
    rgba = await canvasShowsDocument(page, "main");
    expect(hex(pixelAt(rgba, 1000, 450, 150))).toBe("#2563EB");
    expect(hex(pixelAt(rgba, 1000, 750, 150))).toBe("#F59E0B");
    // The bound square shows its slot's default colour.
    expect(hex(pixelAt(rgba, 1000, 150, 150))).toBe("#16A34A");
    const beforeGroup = rgba;

    // Group (Ctrl+G): one group sized to the three, children relative to it; same pixels.
    await page.keyboard.press("Control+g");
    let doc = await currentDoc(page);
    const group = doc.frames[0]?.layers[0];
    expect(doc.frames[0]?.layers.map((l) => l.id)).toEqual(["group-1", "d"]);
    expect(group).toMatchObject({ type: "group", x: 100, y: 100, width: 700, height: 100 });
    expect(group?.layers?.map((l) => [l.id, l.x, l.y])).toEqual([
      ["a", 0, 0],
      ["b", 300, 0],
      ["c", 600, 0],
    ]);
    rgba = await canvasShowsDocument(page, "main");
    expect(rgba.equals(beforeGroup)).toBe(true);

    // Nudge the group: 3 x 1 px right, 10 px down.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowDown");
    doc = await currentDoc(page);
    expect(doc.frames[0]?.layers[0]).toMatchObject({ id: "group-1", x: 103, y: 110 });
    rgba = await canvasShowsDocument(page, "main");
    expect(hex(pixelAt(rgba, 1000, 102, 150))).toBe("#FFFFFF");
    expect(hex(pixelAt(rgba, 1000, 103, 205))).toBe("#16A34A");
    expect(hex(pixelAt(rgba, 1000, 150, 105))).toBe("#FFFFFF");

    // Ungroup (Ctrl+Shift+G): the children come back where they are drawn.
    await page.keyboard.press("Control+Shift+g");
    expect(await xs()).toEqual([
      ["a", 103, 110],
      ["b", 403, 110],
      ["c", 703, 110],
      ["d", 450, 610],
    ]);
    rgba = await canvasShowsDocument(page, "main");
    expect(hex(pixelAt(rgba, 1000, 453, 160))).toBe("#2563EB");
    expect(await page.getByTestId("selection-member").count()).toBe(3);

    // Z-order: the dark bar to the front (it now draws over nothing new, the order is what counts).
    await page.locator('[data-layer="d"]').click();
    await page.getByTestId("order-back").click();
    expect((await currentDoc(page)).frames[0]?.layers[0]?.id).toBe("d");

    // Copy the bound square (click on the canvas) and paste it into another template: the layer,
    // its binding and the slot it is bound to come along.
    await dragOnFrame(page, "main", { x: 150, y: 160 }, { x: 150, y: 160 });
    await page.keyboard.press("Control+c");
    const copied = (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === "a");
    await openEditor(page, url, second.id);
    await page.keyboard.press("Control+v");
    await page.waitForFunction(
      () =>
        (
          window as unknown as { __pictor: { currentDocument(): { frames: { layers: unknown[] }[] } } }
        ).__pictor.currentDocument().frames[0]?.layers.length === 1,
    );
    doc = await currentDoc(page);
    expect(doc.key).toBe("board-two");
    expect(doc.frames[0]?.layers).toEqual([copied]);
    expect(doc.slots).toEqual([{ name: "accent", type: "color", default: "#16A34A" }]);
    rgba = await canvasShowsDocument(page, "main");
    expect(hex(pixelAt(rgba, 1000, 150, 160))).toBe("#16A34A");
    // Pasted again, the copy gets a fresh id.
    await page.keyboard.press("Control+v");
    await page.waitForFunction(
      () =>
        (
          window as unknown as { __pictor: { currentDocument(): { frames: { layers: unknown[] }[] } } }
        ).__pictor.currentDocument().frames[0]?.layers.length === 2,
    );
    expect((await currentDoc(page)).frames[0]?.layers.map((l) => l.id)).toEqual(["a", "a-copy"]);
    await page
      .getByTestId("save-state")
      .filter({ hasText: "All changes saved" })
      .waitFor({ timeout: 20_000 });
    const saved = await call<{ document: { frames: { layers: { id: string }[] }[] } }>(
      `/v1/templates/${second.id}`,
    );
    expect(saved.document.frames[0]?.layers.map((l) => l.id)).toEqual(["a", "a-copy"]);
  }, 240_000);

  it("zooms (Ctrl+wheel, to fit, to the selection, 100 %), pans with Space, locks, and scales a multi-selection", async () => {
    const { page, url } = h;
    const { call } = await signedUp(page, url, "Canvas view e2e");
    const doc = board("view-board");
    doc.frames[0]?.layers.splice(2, 2);
    (doc.frames[0]?.layers[1] as { x: number; y: number }).x = 600;
    const created = await call<{ id: string }>("/v1/templates", { body: { document: doc } });
    await openEditor(page, url, created.id);
    const overlay = page.getByTestId("frame-overlay-main");
    const zoomOf = async () => Number(await overlay.getAttribute("data-zoom"));
    const fit = await zoomOf();

    // Ctrl+wheel over the stage zooms in about the pointer; Shift+1 fits again; Shift+0 is 100 %.
    const ov = await overlay.boundingBox();
    if (!ov) throw new Error("no frame");
    await page.mouse.move(ov.x + ov.width / 2, ov.y + ov.height / 2);
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, -200);
    await page.keyboard.up("Control");
    await page.waitForFunction(
      (z) =>
        Number(document.querySelector('[data-testid="frame-overlay-main"]')?.getAttribute("data-zoom")) > z,
      fit,
    );
    await page.keyboard.press("Shift+Digit1");
    expect(await zoomOf()).toBe(fit);
    await page.keyboard.press("Shift+Digit0");
    expect(await page.getByTestId("zoom").textContent()).toBe("100%");

    // Space + drag pans the stage.
    const stage = page.locator(".stage-wrap");
    const before = await stage.evaluate((el) => el.scrollLeft);
    const sb = await stage.boundingBox();
    if (!sb) throw new Error("no stage");
    await page.keyboard.down("Space");
    await page.mouse.move(sb.x + sb.width / 2, sb.y + sb.height / 2);
    await page.mouse.down();
    await page.mouse.move(sb.x + sb.width / 2 - 150, sb.y + sb.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up("Space");
    expect(await stage.evaluate((el) => el.scrollLeft)).toBeGreaterThan(before + 100);

    // Zoom to the selection: one 100 px square fills the stage (the 400 % limit).
    await page.locator('[data-layer="a"] .layer-select').click();
    await page.getByTestId("zoom-selection").click();
    expect(await page.getByTestId("zoom").textContent()).toBe("400%");
    await page.getByTestId("zoom-fit").click();
    expect(await zoomOf()).toBe(fit);

    // A locked layer is not picked on the canvas, nor by the marquee.
    const pressed = (id: string) =>
      page.locator(`[data-layer="${id}"] .layer-select`).getAttribute("aria-pressed");
    await page.locator('[data-layer="b"] [data-testid="layer-lock"]').click();
    await dragOnFrame(page, "main", { x: 650, y: 350 }, { x: 650, y: 350 });
    expect(await pressed("b")).toBe("false");
    await dragOnFrame(page, "main", { x: 20, y: 20 }, { x: 990, y: 690 });
    expect([await pressed("a"), await pressed("b")]).toEqual(["true", "false"]);
    await page.locator('[data-layer="b"] [data-testid="layer-lock"]').click();

    // Ctrl+A, then the multi-selection's corner handle scales both squares and their spacing.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Control+a");
    expect(await page.getByTestId("selection-member").count()).toBe(2);
    const handle = await page.getByTestId("handle-1,1").boundingBox();
    if (!handle) throw new Error("no handle");
    const z = await zoomOf();
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2 + 60 * z, handle.y + handle.height / 2 + 30 * z, {
      steps: 5,
    });
    await page.mouse.up();
    const [a, b] = (await currentDoc(page)).frames[0]?.layers ?? [];
    expect(a?.width).toBe(b?.width);
    expect(a?.width).toBeGreaterThan(105);
    expect((b?.x ?? 0) - (a?.x ?? 0)).toBeGreaterThan(530);
    expect(a).toMatchObject({ x: 100, y: 100 });
    const rgba = await canvasShowsDocument(page, "main");
    expect(hex(pixelAt(rgba, 1000, (b?.x ?? 0) + 2, (b?.y ?? 0) + 2))).toBe("#2563EB");
  }, 240_000);
});
