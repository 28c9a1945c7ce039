import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentDoc, type LayerJson, openEditor, signedUp } from "./canvas-support.ts";
import {
  CHROMIUM,
  type EditorHarness,
  haveChromium,
  inCI,
  startEditorHarness,
  waitSaved,
} from "./harness.ts";

/**
 * What felt like bugs in a designer's first hour with the editor, each driven as a designer would in
 * a real browser: Space-drag after a toolbar click, the "More" menu of layer kinds, a multi-selection
 * in the properties panel, guides from the rulers, a marquee from the pasteboard, whole pixels after
 * distribute and a resized frame copy, the publish button once published, the tab bar's width and
 * its warning count, Ctrl+B in a plain text.
 */
const rect = (id: string, x: number, y: number, width = 200, height = 100) => ({
  id,
  type: "shape",
  shape: "rectangle",
  x,
  y,
  width,
  height,
  fill: "#2563EB",
});

function board(key: string, layers: unknown[] = [rect("a", 100, 100), rect("b", 600, 450)], extra = {}) {
  return {
    version: 2,
    key,
    name: key,
    slots: [],
    frames: [{ name: "main", width: 1000, height: 700, background: "#FFFFFF", layers }],
    ...extra,
  };
}

async function frameGeometry(page: Page) {
  const overlay = page.getByTestId("frame-overlay-main");
  const box = await overlay.boundingBox();
  if (!box) throw new Error("no frame on screen");
  const zoom = Number(await overlay.getAttribute("data-zoom"));
  /** Frame pixels to screen pixels. */
  const at = (x: number, y: number) => ({ x: box.x + x * zoom, y: box.y + y * zoom });
  return { box, zoom, at };
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

const layerOf = async (page: Page, id: string): Promise<LayerJson | undefined> =>
  (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === id);

if (!haveChromium && !inCI) console.warn(`[editor first-hour e2e] SKIPPED: ${CHROMIUM} is not installed.`);

describe.skipIf(!haveChromium && !inCI)("editor: the first hour has no traps", () => {
  let h: EditorHarness;
  let call: Awaited<ReturnType<typeof signedUp>>["call"];
  beforeAll(async () => {
    h = await startEditorHarness();
    ({ call } = await signedUp(h.page, h.url, "First hour e2e"));
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  async function open(document: unknown): Promise<string> {
    const created = await call<{ id: string }>("/v1/templates", { body: { document } });
    await openEditor(h.page, h.url, created.id);
    return created.id;
  }

  it("1. Space-drag pans after a click on a toolbar button, and never moves the layer", async () => {
    const { page } = h;
    await open(board("space-pan"));
    const stage = page.locator("main.stage-wrap");
    const scroll = () => stage.evaluate((el) => ({ left: el.scrollLeft, top: el.scrollTop }));

    // "Fit" keeps the focus after its click; Space held over a layer, then a drag.
    await page.getByTestId("zoom-fit").click();
    let { at } = await frameGeometry(page);
    await page.keyboard.down("Space");
    await drag(page, at(200, 150), { x: at(200, 150).x + 120, y: at(200, 150).y + 80 });
    await page.keyboard.up("Space");
    expect(await layerOf(page, "a")).toMatchObject({ x: 100, y: 100 });

    // At 100 % the stage scrolls: the same gesture after a click on "100%" pans by the drag.
    await page.getByTestId("zoom-100").click();
    await page.waitForFunction(() => document.querySelector('[data-testid="zoom"]')?.textContent === "100%");
    await stage.evaluate((el) => {
      el.scrollLeft = 0;
      el.scrollTop = 0;
    });
    expect(await stage.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeGreaterThan(100);
    ({ at } = await frameGeometry(page));
    await page.keyboard.down("Space");
    await drag(page, at(200, 150), { x: at(200, 150).x - 100, y: at(200, 150).y });
    await page.keyboard.up("Space");
    expect(await layerOf(page, "a")).toMatchObject({ x: 100, y: 100 });
    expect(await layerOf(page, "b")).toMatchObject({ x: 600, y: 450 });
    expect((await scroll()).left).toBe(100);
    // Space did not click "100%" again (the zoom is untouched) and the undo history is empty.
    expect(await page.getByTestId("undo").isDisabled()).toBe(true);

    // A button the keyboard reached still takes Space as its click (the rulers toggle).
    const rulers = page.getByTestId("toggle-rulers");
    const shown = await rulers.getAttribute("aria-pressed");
    await rulers.focus();
    await page.keyboard.press("Space");
    expect(await rulers.getAttribute("aria-pressed")).not.toBe(shown);
  });

  it("2. the More menu shows every layer kind whole, over the canvas, and adds them", async () => {
    const { page } = h;
    await open(board("more-menu"));
    await page.getByTestId("add-layer").click();
    const items = page.locator("#add-layer-menu .menu-item");
    const count = await items.count();
    expect(count).toBeGreaterThanOrEqual(7);
    const labels: string[] = [];
    for (let i = 0; i < count; i++) {
      const item = items.nth(i);
      labels.push((await item.textContent())?.trim() ?? "");
      const b = await item.boundingBox();
      if (!b) throw new Error(`menu item ${i} has no box`);
      // Both ends of the entry are on top at their place on screen (not cut by the left panel).
      const hits = await page.evaluate(
        ({ points, index }) => {
          const el = document.querySelectorAll("#add-layer-menu .menu-item")[index];
          return points.map(([x, y]) => {
            const hit = document.elementFromPoint(x as number, y as number);
            return Boolean(hit && el?.contains(hit));
          });
        },
        {
          points: [
            [b.x + 4, b.y + b.height / 2],
            [b.x + b.width - 4, b.y + b.height / 2],
          ],
          index: i,
        },
      );
      expect(hits, labels[i]).toEqual([true, true]);
      // The label's text fits its entry.
      expect(await item.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    for (const kind of ["QR", "Barcode", "Rating", "Icon"])
      expect(labels.some((l) => l.toLowerCase().includes(kind.toLowerCase()))).toBe(true);
    // An entry at the menu's far side adds its layer.
    await page.getByTestId("add-qr").click();
    expect((await currentDoc(page)).frames[0]?.layers.map((l) => l.type)).toContain("qr");
    // Escape closes the menu.
    await page.getByTestId("add-layer").click();
    await page.keyboard.press("Escape");
    expect(await page.locator("#add-layer-menu").count()).toBe(0);
  });

  it("3. with two layers selected, the panel says so and edits both, showing mixed values", async () => {
    const { page } = h;
    await open(board("multi-props", [rect("a", 100, 100), { ...rect("b", 600, 450), opacity: 0.8 }]));
    const { at } = await frameGeometry(page);
    await page.mouse.click(at(150, 150).x, at(150, 150).y);
    await page.keyboard.down("Shift");
    await page.mouse.click(at(650, 500).x, at(650, 500).y);
    await page.keyboard.up("Shift");
    await page.getByTestId("tab-design").click();
    await expect.poll(() => page.getByTestId("multi-count").textContent()).toBe("2 layers selected");
    // Shared values show; those that differ read "Mixed".
    const x = page.getByTestId("multi-x");
    expect(await x.inputValue()).toBe("");
    expect(await x.getAttribute("placeholder")).toBe("Mixed");
    expect(await page.getByTestId("multi-width").inputValue()).toBe("200");
    expect(await page.getByTestId("multi-opacity").inputValue()).toBe("");
    // An edit goes to both layers, as one undo step.
    await page.getByTestId("multi-opacity").fill("0.5");
    await page.getByTestId("multi-y").fill("300");
    const [a, b] = [await layerOf(page, "a"), await layerOf(page, "b")];
    expect([a?.opacity, a?.y, b?.opacity, b?.y]).toEqual([0.5, 300, 0.5, 300]);
    expect(await page.getByTestId("multi-opacity").inputValue()).toBe("0.5");
    // Unchecking "Visible" hides both.
    await page.getByTestId("multi-visible").uncheck();
    expect([(await layerOf(page, "a"))?.visible, (await layerOf(page, "b"))?.visible]).toEqual([
      false,
      false,
    ]);
  });

  it("4. the top ruler gives a horizontal guide, the left ruler a vertical one", async () => {
    const { page } = h;
    await open(board("ruler-guides"));
    const { at } = await frameGeometry(page);
    const top = await page.getByTestId("ruler-x").boundingBox();
    const left = await page.getByTestId("ruler-y").boundingBox();
    if (!top || !left) throw new Error("no rulers");
    // Down from the top ruler: a horizontal guide where it is released.
    await drag(page, { x: at(500, 0).x, y: top.y + top.height / 2 }, at(500, 250));
    expect(await page.getByTestId("ruler-guide-x").count()).toBe(0);
    const horizontal = page.getByTestId("ruler-guide-y");
    expect(await horizontal.getAttribute("data-at")).toBe("250");
    expect(await horizontal.getAttribute("aria-orientation")).toBe("horizontal");
    const hb = await horizontal.boundingBox();
    expect(hb && hb.width > hb.height).toBe(true);
    // Right from the left ruler: a vertical guide.
    await drag(page, { x: left.x + left.width / 2, y: at(0, 400).y }, at(333, 400));
    const vertical = page.getByTestId("ruler-guide-x");
    expect(await vertical.getAttribute("data-at")).toBe("333");
    const vb = await vertical.boundingBox();
    expect(vb && vb.height > vb.width).toBe(true);
  });

  it("5. a marquee starts on the grey pasteboard outside the frame", async () => {
    const { page } = h;
    await open(board("pasteboard-marquee", [rect("a", 100, 100), rect("b", 600, 450), rect("c", 700, 250)]));
    const { at, zoom } = await frameGeometry(page);
    // From 24 screen px below and right of the frame's corner, up and left over b and c only.
    const start = at(1000 + 24 / zoom, 700 + 24 / zoom);
    const onPasteboard = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.matches(".stage-wrap, .stage, .frame-block") ?? false,
      start,
    );
    expect(onPasteboard).toBe(true);
    await drag(page, start, at(650, 200));
    expect(await page.getByTestId("selection-member").count()).toBe(2);
    await page.getByTestId("tab-design").click();
    expect(await page.getByTestId("multi-count").textContent()).toBe("2 layers selected");
    // A press on the pasteboard without a drag still selects no layer.
    await page.mouse.click(start.x, start.y);
    expect(await page.getByTestId("selection-member").count()).toBe(0);
  });

  it("6. distribute and a resized frame copy land on whole pixels and whole font sizes", async () => {
    const { page } = h;
    await open(
      board("whole-pixels", [
        rect("a", 10, 100, 101, 50),
        rect("b", 300, 200, 77, 50),
        rect("c", 887, 300, 103, 50),
        {
          id: "t",
          type: "text",
          x: 123,
          y: 457,
          width: 511,
          height: 97,
          text: "Summer sale",
          font: { family: "Inter", size: 43 },
          color: "#111827",
        },
      ]),
    );
    const { at } = await frameGeometry(page);
    await page.mouse.click(at(50, 120).x, at(50, 120).y);
    await page.keyboard.down("Shift");
    await page.mouse.click(at(330, 220).x, at(330, 220).y);
    await page.mouse.click(at(930, 320).x, at(930, 320).y);
    await page.keyboard.up("Shift");
    await page.getByTestId("distribute-x").click();
    const xs = (await currentDoc(page)).frames[0]?.layers.slice(0, 3).map((l) => l.x) ?? [];
    expect(xs[0]).toBe(10);
    expect(xs[2]).toBe(887);
    for (const x of xs) expect(Number.isInteger(x)).toBe(true);
    // The gaps are equal to the pixel.
    const gaps = [(xs[1] ?? 0) - (10 + 101), 887 - ((xs[1] ?? 0) + 77)];
    expect(Math.abs((gaps[0] ?? 0) - (gaps[1] ?? 0))).toBeLessThanOrEqual(1);

    // A copy of the frame as a story (1080 × 1920: scaled by 1.08).
    await page.getByTestId("add-frame").click();
    await page.getByTestId("frame-from").selectOption("0");
    await page.getByTestId("preset-1080x1920").click();
    const story = (await currentDoc(page)).frames[1];
    expect(story).toMatchObject({ width: 1080, height: 1920 });
    for (const l of story?.layers ?? []) {
      for (const v of [l.x, l.y, l.width, l.height]) expect(Number.isInteger(v), `${l.id}: ${v}`).toBe(true);
    }
    const text = story?.layers.find((l) => l.id === "t") as LayerJson & { font: { size: number } };
    expect(text.font.size).toBe(46);
    // And as a 4:5 portrait post (1080 × 1350: scaled by 1.08 too).
    await page.getByTestId("add-frame").click();
    await page.getByTestId("frame-from").selectOption("0");
    await page.getByTestId("preset-1080x1350").click();
    const portrait = (await currentDoc(page)).frames[2];
    expect(portrait).toMatchObject({ width: 1080, height: 1350 });
    for (const l of portrait?.layers ?? [])
      for (const v of [l.x, l.y, l.width, l.height]) expect(Number.isInteger(v), `${l.id}: ${v}`).toBe(true);
  });

  it("7. once published, the publish button is disabled until the draft changes", async () => {
    const { page } = h;
    await open(board("publish-state"));
    await page.getByTestId("tab-publish").click();
    const button = page.getByTestId("publish-panel-button");
    expect(await button.isEnabled()).toBe(true);
    await button.click();
    await page.getByTestId("versions").locator("li").first().waitFor();
    await expect.poll(() => button.isDisabled()).toBe(true);
    const status = (await page.getByTestId("publish-status").textContent()) ?? "";
    expect(status).toContain("v1");
    expect(status).not.toContain("v2");
    // A change to the draft makes publishing meaningful again: v2.
    const { at } = await frameGeometry(page);
    await page.mouse.click(at(150, 150).x, at(150, 150).y);
    await page.keyboard.press("ArrowRight");
    await waitSaved(page);
    await page.getByTestId("tab-publish").click();
    await expect.poll(() => button.isEnabled()).toBe(true);
    expect(await page.getByTestId("publish-status").textContent()).toContain("v2");
    // Undone, the draft is v1 again: nothing to publish.
    await page.keyboard.press("Control+z");
    await waitSaved(page);
    await expect.poll(() => button.isDisabled()).toBe(true);
  });

  it("8. the tab bar shows every tab whole, and ⚠ counts only warnings, not default-value notes", async () => {
    const { page } = h;
    const slots = [
      { name: "headline", type: "text", default: "Big summer sale" },
      { name: "subline", type: "text", default: "This week only" },
      { name: "accent", type: "color", default: "#DC2626" },
    ];
    const text = (id: string, y: number, slot: string) => ({
      id,
      type: "text",
      x: 60,
      y,
      width: 800,
      height: 80,
      text: slot,
      font: { family: "Inter", size: 40 },
      color: "#111827",
      bind: { text: slot },
    });
    await open(
      board(
        "tab-bar",
        [
          text("h", 60, "headline"),
          text("s", 160, "subline"),
          { ...rect("r", 60, 300), bind: { fill: "accent" } },
          // One real warning: a text cut to one line.
          {
            id: "long",
            type: "text",
            x: 60,
            y: 500,
            width: 200,
            height: 150,
            text: "far too many words for one line",
            font: { family: "Inter", size: 40 },
            color: "#111827",
            max_lines: 1,
          },
        ],
        { slots },
      ),
    );
    // The warnings of an API render are worked out after the frames draw: wait for the count.
    const badge = page.getByTestId("warning-count");
    await badge.waitFor({ timeout: 15_000 });
    await expect.poll(() => badge.textContent()).toBe("⚠1");
    // The notes are still listed in the Preview tab.
    await page.getByTestId("tab-preview").click();
    expect(await page.getByTestId("warnings").textContent()).toContain("slot_default_used");
    expect(await page.getByTestId("warnings").textContent()).toContain("text_truncated");
    // Every tab's words show whole, inside the bar.
    const fits = await page.evaluate(() => {
      const bar = document.querySelector(".tabs") as HTMLElement;
      const right = bar.getBoundingClientRect().right;
      return Array.from(bar.querySelectorAll<HTMLElement>("[role=tab]")).map((t) => ({
        label: t.textContent,
        whole: t.scrollWidth <= t.clientWidth,
        inside: t.getBoundingClientRect().right <= right + 0.5,
      }));
    });
    expect(fits.map((f) => f.label)).toEqual(["Design", "Slots3", "Preview⚠1", "Versions", "API", "Get URL"]);
    for (const f of fits) expect(f, String(f.label)).toMatchObject({ whole: true, inside: true });
    expect(await page.evaluate(() => document.querySelector(".tabs")?.scrollWidth)).toBeLessThanOrEqual(
      (await page.evaluate(() => document.querySelector(".tabs")?.clientWidth)) ?? 0,
    );
  });

  it("9. Ctrl+B on a word of a plain text says why it bolds nothing, and changes nothing", async () => {
    const { page } = h;
    await open(
      board("plain-bold", [
        {
          id: "title",
          type: "text",
          x: 60,
          y: 60,
          width: 780,
          height: 120,
          text: "Hello world",
          font: { family: "Inter", size: 64 },
          color: "#111827",
        },
      ]),
    );
    const { at } = await frameGeometry(page);
    await page.mouse.dblclick(at(450, 120).x, at(450, 120).y);
    const area = page.getByTestId("inline-text-area");
    await area.waitFor();
    await area.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(6, 11));
    await page.keyboard.press("Control+b");
    const note = page.getByTestId("inline-text-note");
    expect(await note.getAttribute("role")).toBe("status");
    expect(await note.isVisible()).toBe(true);
    const words = (await note.textContent()) ?? "";
    expect(words).toContain("rich text slot");
    expect(words).toContain("Weight");
    expect(await area.inputValue()).toBe("Hello world");
    expect((await layerOf(page, "title"))?.text).toBe("Hello world");
    // Typing goes on, and the note goes away.
    await page.keyboard.press("End");
    await page.keyboard.type("!");
    expect(await note.textContent()).toBe("");
    expect((await layerOf(page, "title"))?.text).toBe("Hello world!");
  });
});
