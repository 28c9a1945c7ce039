import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentDoc, type LayerJson, openEditor, signedUp } from "./canvas-support.ts";
import { CHROMIUM, type EditorHarness, haveChromium, inCI, startEditorHarness } from "./harness.ts";

/**
 * The conventions a designer expects from any design tool, and axe at zero violations of any impact
 * on the editor's main screen and its dialogs.
 */

/** Every axe violation of the page as it is now (any impact), one line each. */
async function violations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map(
    (v) =>
      `${screen}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
        .slice(0, 4)
        .map((n) => n.target.join(" "))
        .join(" | ")}`,
  );
}

function card(key: string) {
  return {
    version: 2,
    key,
    name: key,
    slots: [
      { name: "headline", type: "text" },
      { name: "accent", type: "color" },
    ],
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
          },
          {
            id: "photo",
            type: "image",
            x: 40,
            y: 220,
            width: 200,
            height: 140,
            src: "",
          },
        ],
      },
    ],
  };
}

const layerOf = async (page: Page, id: string): Promise<LayerJson | undefined> =>
  (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === id);

if (!haveChromium && !inCI) console.warn(`[editor conventions e2e] SKIPPED: ${CHROMIUM} is not installed.`);

describe.skipIf(!haveChromium && !inCI)("editor conventions", () => {
  let h: EditorHarness;
  beforeAll(async () => {
    h = await startEditorHarness();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  it("has no axe violations of any impact on the main screens and the dialogs", async () => {
    const { url } = h;
    // axe opens a page of its own to finish its run: that needs a context made with newContext().
    const context = await h.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const found: string[] = [];
    await page.goto(url);
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(url);
    await page.getByTestId("signup").waitFor();
    found.push(...(await violations(page, "sign-in")));

    const { call } = await signedUp(page, url, "Axe e2e");
    await page.waitForFunction(
      () => document.querySelectorAll('.thumb[data-state="loading"]').length === 0,
      null,
      { timeout: 90_000 },
    );
    found.push(...(await violations(page, "templates")));
    await page.getByTestId("new-template").click();
    await page.getByTestId("new-template-dialog").waitFor();
    found.push(...(await violations(page, "new template dialog")));
    await page.keyboard.press("Escape");

    const created = await call<{ id: string }>("/v1/templates", { body: { document: card("axe-card") } });
    await openEditor(page, url, created.id);
    found.push(...(await violations(page, "editor")));
    await page.locator('[data-layer="photo"] .layer-select').click();
    await page.getByTestId("choose-asset").click();
    await page.getByTestId("asset-picker").waitFor();
    found.push(...(await violations(page, "asset library")));
    await page.getByTestId("asset-picker").getByRole("button", { name: "Close" }).click();
    await page.locator('[data-layer="title"] .layer-select').click();
    await page.getByTestId("font-picker-open").click();
    await page.getByTestId("font-picker").waitFor();
    found.push(...(await violations(page, "font picker")));
    await page.getByTestId("font-picker-open").click();
    for (const tab of ["slots", "preview", "publish", "api", "url"]) {
      await page.getByTestId(`tab-${tab}`).click();
      found.push(...(await violations(page, `editor, ${tab} tab`)));
    }
    // The context menu and the shortcut sheet.
    await page.locator('[data-layer="box"]').click({ button: "right" });
    await page.getByTestId("context-menu").waitFor();
    found.push(...(await violations(page, "context menu")));
    await page.keyboard.press("Escape");
    await page.getByTestId("shortcuts").click();
    await page.getByTestId("shortcut-sheet").waitFor();
    found.push(...(await violations(page, "shortcut sheet")));
    await page.keyboard.press("Escape");
    await page.getByTestId("export").click();
    await page.getByTestId("export-dialog").waitFor();
    found.push(...(await violations(page, "export dialog")));
    await context.close();
    expect(found).toEqual([]);
  }, 240_000);

  it("right-click menu: copy, paste, duplicate, group, arrange, lock, hide, delete and bind", async () => {
    const { page, url } = h;
    const { call } = await signedUp(page, url, "Context menu e2e");
    const created = await call<{ id: string }>("/v1/templates", { body: { document: card("menu-card") } });
    await openEditor(page, url, created.id);
    const overlay = page.getByTestId("frame-overlay-main");
    const ov = await overlay.boundingBox();
    if (!ov) throw new Error("no frame");
    const zoom = Number(await overlay.getAttribute("data-zoom"));
    const at = (x: number, y: number) => ({ x: ov.x + x * zoom, y: ov.y + y * zoom });
    const ids = async () => (await currentDoc(page)).frames[0]?.layers.map((l) => l.id);
    const menu = page.getByTestId("context-menu");

    // A right-click on a layer selects it and opens the menu there, its first entry focused.
    await page.mouse.click(at(140, 100).x, at(140, 100).y, { button: "right" });
    await menu.waitFor();
    expect(await menu.getAttribute("role")).toBe("menu");
    expect(await menu.getAttribute("aria-label")).toBe("Layer box");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "context-copy",
    );
    const mb = await menu.boundingBox();
    expect(Math.abs((mb?.x ?? 0) - at(140, 100).x)).toBeLessThan(2);
    // Two layers: a right-click inside the selection keeps both; Group (then undone).
    await page.keyboard.press("Escape");
    await page.mouse.click(at(140, 100).x, at(140, 100).y);
    await page.keyboard.down("Shift");
    await page.mouse.click(at(500, 110).x, at(500, 110).y);
    await page.keyboard.up("Shift");
    await page.mouse.click(at(500, 110).x, at(500, 110).y, { button: "right" });
    expect(await menu.getAttribute("aria-label")).toBe("2 layers");
    await page.getByTestId("context-group").click();
    const grouped = (await currentDoc(page)).frames[0]?.layers.find((l) => l.type === "group");
    expect(grouped?.layers?.map((l) => l.id).sort()).toEqual(["box", "title"]);
    await page.keyboard.press("Control+z");

    // Enter runs the focused entry (Copy); Paste puts the copy on top of the frame.
    await page.mouse.click(at(140, 100).x, at(140, 100).y, { button: "right" });
    await page.keyboard.press("Enter");
    expect(await menu.count()).toBe(0);
    await page.mouse.click(at(500, 300).x, at(500, 300).y, { button: "right" });
    await page.getByTestId("context-paste").click();
    await expect.poll(ids).toEqual(["box", "title", "photo", "box-copy"]);

    // Duplicate, then send the duplicate to the back.
    await page.locator('[data-layer="box"] .layer-select').click({ button: "right" });
    await page.getByTestId("context-duplicate").click();
    expect((await ids())?.length).toBe(5);
    const dup = (await ids())?.[4] ?? "";
    await page.locator(`[data-layer="${dup}"] .layer-select`).click({ button: "right" });
    await page.getByTestId("context-back").click();
    expect((await ids())?.[0]).toBe(dup);

    // Lock, hide and delete from the menu opened with the keyboard (Shift+F10).
    await page.locator('[data-layer="photo"] .layer-select').click();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Shift+F10");
    await menu.waitFor();
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "context-paste",
    );
    await page.keyboard.press("Escape");
    expect(await menu.count()).toBe(0);
    await page.keyboard.press("Shift+F10");
    await page.getByTestId("context-lock").click();
    expect(
      await page.locator('[data-layer="photo"] [data-testid="layer-lock"]').getAttribute("aria-pressed"),
    ).toBe("true");
    await page.keyboard.press("Shift+F10");
    expect(await page.getByTestId("context-lock").textContent()).toContain("Unlock");
    await page.getByTestId("context-lock").click();
    await page.keyboard.press("Shift+F10");
    await page.getByTestId("context-hide").click();
    expect((await layerOf(page, "photo"))?.visible).toBe(false);
    await page.keyboard.press("Shift+F10");
    await page.getByTestId("context-delete").click();
    expect(await ids()).not.toContain("photo");

    // Bind: the title's text to the text slot, the box's fill to the colour slot; then unbind.
    await page.mouse.click(at(500, 110).x, at(500, 110).y, { button: "right" });
    expect(await page.getByTestId("context-bind-fill-accent").count()).toBe(0);
    await page.getByTestId("context-bind-text-headline").click();
    expect((await layerOf(page, "title"))?.bind).toEqual({ text: "headline" });
    await page.locator('[data-layer="box"] .layer-select').click({ button: "right" });
    await page.getByTestId("context-bind-fill-accent").click();
    expect((await layerOf(page, "box"))?.bind).toEqual({ fill: "accent" });
    await page.locator('[data-layer="box"] .layer-select').click({ button: "right" });
    await page.getByTestId("context-unbind-fill").click();
    expect((await layerOf(page, "box"))?.bind).toBeUndefined();
  });

  it("renames a layer by double-click in the layer list, and shows the shortcut sheet on ?", async () => {
    const { page, url } = h;
    const { call } = await signedUp(page, url, "Rename e2e");
    const created = await call<{ id: string }>("/v1/templates", { body: { document: card("rename-card") } });
    await openEditor(page, url, created.id);
    const row = page.locator('[data-layer="box"]');
    await row.locator(".layer-name").dblclick();
    const input = page.getByTestId("layer-rename");
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.fill("Hero box");
    await page.keyboard.press("Enter");
    expect((await layerOf(page, "box"))?.name).toBe("Hero box");
    expect(await row.locator(".layer-name").textContent()).toBe("Hero box");
    // Focus is back on the row; F2 renames again, Escape keeps the name.
    expect(await page.evaluate(() => document.activeElement?.className)).toContain("layer-select");
    await page.keyboard.press("F2");
    await page.getByTestId("layer-rename").fill("Something else");
    await page.keyboard.press("Escape");
    expect((await layerOf(page, "box"))?.name).toBe("Hero box");
    // An empty name goes back to the id.
    await row.locator(".layer-name").dblclick();
    await page.getByTestId("layer-rename").fill("");
    await page.keyboard.press("Enter");
    expect((await layerOf(page, "box"))?.name).toBeUndefined();
    expect(await row.locator(".layer-name").textContent()).toBe("box");
    await page.keyboard.press("Control+z");
    expect((await layerOf(page, "box"))?.name).toBe("Hero box");

    // "?" opens the shortcut sheet, a modal dialog with its close button focused; Escape closes it.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Shift+Slash");
    const sheet = page.getByTestId("shortcut-sheet");
    await sheet.waitFor();
    expect(await sheet.getAttribute("role")).toBe("dialog");
    expect(await sheet.getAttribute("aria-modal")).toBe("true");
    expect(await sheet.textContent()).toContain("Ctrl+Shift+G");
    expect(await sheet.textContent()).toContain("rename the layer");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Close");
    await page.keyboard.press("Escape");
    expect(await sheet.count()).toBe(0);
    // The selection survived the Escape that closed the sheet.
    expect(await page.getByTestId("multi-props").count()).toBe(0);
  });
});
