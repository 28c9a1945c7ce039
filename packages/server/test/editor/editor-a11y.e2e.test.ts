import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentDoc, openEditor, signedUp } from "./canvas-support.ts";
import { type EditorHarness, haveChromium, inCI, startEditorHarness } from "./harness.ts";

/** Serious and critical axe violations of the page as it is now, one line each. */
async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${screen}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
}

function richCard() {
  return {
    version: 2,
    key: "a11y-card",
    name: "A11y card",
    slots: [{ name: "headline", type: "text", rich: true }],
    frames: [
      {
        name: "main",
        width: 800,
        height: 400,
        background: "#FFFFFF",
        layers: [
          {
            id: "box",
            type: "shape",
            shape: "rectangle",
            x: 40,
            y: 40,
            width: 200,
            height: 120,
            fill: "#2563EB",
          },
          {
            id: "title",
            type: "text",
            x: 300,
            y: 60,
            width: 440,
            height: 100,
            text: "Hello",
            font: { family: "Inter", weight: 700, size: 48 },
            color: "#111827",
            bind: { text: "headline" },
          },
        ],
      },
    ],
  };
}

/** Leaves the focused control (as Tab past the panels would), so the canvas shortcuts apply. */
async function blur(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

if (!haveChromium && !inCI) console.warn("[editor a11y e2e] SKIPPED: /usr/bin/chromium is not installed.");

describe.skipIf(!haveChromium && !inCI)("editor accessibility (axe) and keyboard operation", () => {
  let h: EditorHarness;
  beforeAll(async () => {
    h = await startEditorHarness();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  it("has no serious or critical axe violations on sign-in, the template list and the editor", async () => {
    const { url } = h;
    // axe opens a page of its own to finish its run: that needs a context made with newContext().
    const context = await h.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const found: string[] = [];
    await page.goto(url);
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(url);
    await page.getByTestId("signup").waitFor();
    found.push(...(await seriousViolations(page, "sign-in")));

    const { call } = await signedUp(page, url, "A11y e2e");
    await page.waitForFunction(
      () => document.querySelectorAll('.thumb[data-state="loading"]').length === 0,
      null,
      {
        timeout: 90_000,
      },
    );
    found.push(...(await seriousViolations(page, "templates")));

    const created = await call<{ id: string }>("/v1/templates", { body: { document: richCard() } });
    await openEditor(page, url, created.id);
    found.push(...(await seriousViolations(page, "editor")));
    // With a selection (arrangement tools, properties), and while typing in place (rich toolbar).
    await page.locator('[data-layer="box"]').click();
    found.push(...(await seriousViolations(page, "editor, layer selected")));
    await page.locator('[data-layer="title"]').click();
    await blur(page);
    await page.keyboard.press("Enter");
    await page.getByTestId("rich-toolbar").waitFor();
    found.push(...(await seriousViolations(page, "editor, typing rich text")));
    await page.keyboard.press("Escape");
    for (const tab of ["slots", "preview", "publish", "api"]) {
      await page.getByTestId(`tab-${tab}`).click();
      found.push(...(await seriousViolations(page, `editor, ${tab} tab`)));
    }
    await context.close();
    expect(found).toEqual([]);
  }, 240_000);

  it("operates the canvas tools from the keyboard alone", async () => {
    const { page, url } = h;
    const { call } = await signedUp(page, url, "Keyboard e2e");
    const created = await call<{ id: string }>("/v1/templates", { body: { document: richCard() } });
    await openEditor(page, url, created.id);
    // A layer row takes focus and is selected with Enter (Shift+Enter adds to the selection).
    await page.locator('[data-layer="box"] .layer-select').focus();
    await page.keyboard.press("Enter");
    await page.locator('[data-layer="title"] .layer-select').focus();
    await page.keyboard.press("Shift+Enter");
    // Arrangement buttons are reached with Tab and pressed with Space.
    await page.getByTestId("align-top").focus();
    await page.keyboard.press("Space");
    let doc = await currentDoc(page);
    expect(doc.frames[0]?.layers.map((l) => l.y)).toEqual([40, 40]);
    // Shortcuts: Alt+H centres both on the selection, Ctrl+G groups, Ctrl+Shift+G ungroups.
    await blur(page);
    await page.keyboard.press("Control+g");
    doc = await currentDoc(page);
    expect(doc.frames[0]?.layers.map((l) => l.type)).toEqual(["group"]);
    await page.keyboard.press("Control+Shift+g");
    await page.keyboard.press("Alt+Shift+H");
    doc = await currentDoc(page);
    expect(doc.frames[0]?.layers.map((l) => l.type)).toEqual(["shape", "text"]);
    // The left ruler adds a vertical guide across the middle with Enter; the focused guide moves
    // with the arrows.
    await page.getByTestId("ruler-y").focus();
    await page.keyboard.press("Enter");
    const guide = page.getByTestId("ruler-guide-x");
    expect(await guide.getAttribute("data-at")).toBe("400");
    await guide.focus();
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("ArrowLeft");
    expect(await guide.getAttribute("data-at")).toBe("409");
    await page.keyboard.press("Delete");
    expect(await page.getByTestId("ruler-guide-x").count()).toBe(0);
    // Enter on a selected text layer types into it; Escape leaves.
    await page.locator('[data-layer="title"]').click();
    await blur(page);
    await page.keyboard.press("Enter");
    await page.getByTestId("inline-text-area").waitFor();
    await page.keyboard.type("Keyboard");
    await page.keyboard.press("Escape");
    doc = await currentDoc(page);
    expect(doc.frames[0]?.layers[1]?.text).toBe("Keyboard");
  }, 120_000);
});
