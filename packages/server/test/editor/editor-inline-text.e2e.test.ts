import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  canvasShowsDocument,
  currentDoc,
  type DocJson,
  framePixels,
  openEditor,
  signedUp,
} from "./canvas-support.ts";
import { type EditorHarness, haveChromium, inCI, SCREENSHOTS, startEditorHarness } from "./harness.ts";

function card() {
  return {
    version: 2,
    key: "inline-card",
    name: "Inline card",
    slots: [{ name: "headline", type: "text", rich: true }],
    frames: [
      {
        name: "main",
        width: 900,
        height: 500,
        background: "#F8FAFC",
        layers: [
          {
            id: "title",
            type: "text",
            x: 60,
            y: 60,
            width: 780,
            height: 120,
            text: "Hello",
            font: { family: "Inter", weight: 700, size: 64 },
            color: "#111827",
          },
          {
            id: "rich",
            type: "text",
            x: 60,
            y: 260,
            width: 780,
            height: 160,
            text: "Big news today",
            font: { family: "Inter", weight: 400, size: 56 },
            color: "#1F2937",
            bind: { text: "headline" },
          },
        ],
      },
    ],
  };
}

/** Double-clicks the middle of a layer's box on the frame. */
async function doubleClickLayer(page: Page, box: { x: number; y: number; width: number; height: number }) {
  const overlay = page.getByTestId("frame-overlay-main");
  const r = await overlay.boundingBox();
  if (!r) throw new Error("no frame overlay");
  const zoom = Number(await overlay.getAttribute("data-zoom"));
  await page.mouse.dblclick(r.x + (box.x + box.width / 2) * zoom, r.y + (box.y + box.height / 2) * zoom);
}

const textOf = (doc: DocJson, id: string) => doc.frames[0]?.layers.find((l) => l.id === id)?.text;

/** The engine's pixels of the open document with one layer's text replaced (what the API would draw). */
async function expectedWith(page: Page, id: string, text: string) {
  const doc = await currentDoc(page);
  const edited = structuredClone(doc);
  const layer = edited.frames[0]?.layers.find((l) => l.id === id);
  if (layer) layer.text = text;
  return framePixels(page, "main", edited);
}

if (!haveChromium && !inCI)
  console.warn("[editor inline text e2e] SKIPPED: /usr/bin/chromium is not installed.");

describe.skipIf(!haveChromium && !inCI)("editor canvas: inline text editing", () => {
  let h: EditorHarness;
  beforeAll(async () => {
    h = await startEditorHarness();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  it("types in place while the engine draws, and styles a rich text range from the toolbar", async () => {
    const { page, url } = h;
    const { call } = await signedUp(page, url, "Inline text e2e");
    const created = await call<{ id: string }>("/v1/templates", { body: { document: card() } });
    await openEditor(page, url, created.id);
    const first = await canvasShowsDocument(page, "main");

    // Double-click the plain text: a textarea over it, everything selected; type a new headline.
    const title = card().frames[0]?.layers[0] as { x: number; y: number; width: number; height: number };
    await doubleClickLayer(page, title);
    const area = page.getByTestId("inline-text-area");
    await area.waitFor();
    expect(await area.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([
      0, 5,
    ]);
    await page.keyboard.type("Typed in place");
    // While typing (the editor is still open), the canvas shows the engine's drawing of the new text.
    expect(textOf(await currentDoc(page), "title")).toBe("Typed in place");
    let shown = await canvasShowsDocument(page, "main");
    expect(shown.equals(first)).toBe(false);
    expect(shown.equals((await expectedWith(page, "title", "Typed in place")).rgba)).toBe(true);
    await page.keyboard.press("End");
    await page.keyboard.type("!");
    expect(textOf(await currentDoc(page), "title")).toBe("Typed in place!");
    await page.keyboard.press("Escape");
    await area.waitFor({ state: "detached" });
    expect(await page.getByTestId("rich-toolbar").count()).toBe(0);

    // Typing is undone in steps (keystrokes within a second are one step), and redone.
    await page.keyboard.press("Control+z");
    expect(["Typed in place", "Hello"]).toContain(textOf(await currentDoc(page), "title"));
    await page.keyboard.press("Control+Shift+z");
    expect(textOf(await currentDoc(page), "title")).toBe("Typed in place!");

    // The rich text layer: a toolbar; Bold on "Big", a colour on "today", italic by Ctrl+I on "news".
    const rich = card().frames[0]?.layers[1] as { x: number; y: number; width: number; height: number };
    await doubleClickLayer(page, rich);
    await page.getByTestId("rich-toolbar").waitFor();
    const select = (from: number, to: number) =>
      area.evaluate(
        (el: HTMLTextAreaElement, [a, b]) => {
          el.focus();
          el.setSelectionRange(a as number, b as number);
        },
        [from, to],
      );
    await select(0, 3);
    await page.getByTestId("rich-bold").click();
    expect(textOf(await currentDoc(page), "rich")).toBe("<b>Big</b> news today");
    await select(9, 14);
    await page.getByTestId("rich-color-value").fill("#dc2626");
    await page.getByTestId("rich-color").click();
    expect(textOf(await currentDoc(page), "rich")).toBe(
      '<b>Big</b> news <color value="#DC2626">today</color>',
    );
    await select(4, 8);
    await page.keyboard.press("Control+i");
    await page.getByTestId("rich-underline").click();
    await select(0, 3);
    await page.getByTestId("rich-strike").click();
    const markup = '<b><s>Big</s></b> <i><u>news</u></i> <color value="#DC2626">today</color>';
    expect(textOf(await currentDoc(page), "rich")).toBe(markup);
    // Typing at the end of "today" continues in its colour; a line break is <br>.
    await area.evaluate((el: HTMLTextAreaElement) => {
      el.focus();
      el.setSelectionRange(el.value.length, el.value.length);
    });
    await page.keyboard.type("!");
    await page.keyboard.press("Enter");
    await page.keyboard.type("x");
    const finalMarkup = '<b><s>Big</s></b> <i><u>news</u></i> <color value="#DC2626">today!<br>x</color>';
    expect(textOf(await currentDoc(page), "rich")).toBe(finalMarkup);
    shown = await canvasShowsDocument(page, "main");
    expect(shown.equals((await expectedWith(page, "rich", finalMarkup)).rgba)).toBe(true);
    // The red run is drawn: some pixel of the second line area is strongly red.
    let red = 0;
    for (let i = 0; i < shown.length; i += 4)
      if ((shown[i] ?? 0) > 180 && (shown[i + 1] ?? 0) < 90 && (shown[i + 2] ?? 0) < 90) red++;
    expect(red).toBeGreaterThan(200);
    await page.screenshot({ path: join(SCREENSHOTS, "editor-rich-text.png") });
    await page.keyboard.press("Escape");

    // The markup is valid: the API accepts the saved draft and renders it.
    await page
      .getByTestId("save-state")
      .filter({ hasText: "All changes saved" })
      .waitFor({ timeout: 20_000 });
    const saved = await call<{ document: DocJson }>(`/v1/templates/${created.id}`);
    expect(textOf(saved.document, "rich")).toBe(finalMarkup);
    expect(textOf(saved.document, "title")).toBe("Typed in place!");
  }, 240_000);
});
