import type { Browser, Page } from "playwright-core";
import { haveChromium, launchChromium } from "../../packages/engine/browser/chromium.ts";
import { type SceneValues, sceneHtml } from "../lib/scene-markup.ts";
import type { TtfFace } from "./satori-resvg.ts";

export interface ChromiumBaseline {
  /** Set the texts (alternating, so every screenshot repaints them) and screenshot the page. */
  screenshot(values: Pick<SceneValues, "headline" | "body">): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Baseline (c): a warm headless Chromium page, the way screenshot-based services run: launched once,
 * the page loaded once, then per render only the values change before `page.screenshot`.
 */
export async function startChromiumBaseline(
  faces: TtfFace[],
  initial: SceneValues,
): Promise<ChromiumBaseline | null> {
  if (!haveChromium) return null;
  const browser: Browser = await launchChromium();
  const page: Page = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
  const fontCss = faces
    .map(
      (f) =>
        `@font-face{font-family:"${f.name}";font-weight:${f.weight};src:url(data:font/ttf;base64,${Buffer.from(f.bytes).toString("base64")}) format("truetype")}`,
    )
    .join("\n");
  await page.setContent(sceneHtml(initial, fontCss), { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return {
    async screenshot(values) {
      await page.evaluate(
        ([headline, body]) => {
          (document.getElementById("headline") as HTMLElement).textContent = headline;
          (document.getElementById("body") as HTMLElement).textContent = body;
        },
        [values.headline, values.body] as const,
      );
      return new Uint8Array(await page.screenshot({ type: "png" }));
    },
    close: () => browser.close(),
  };
}
