import type { Page } from "playwright-core";
import { apiClient, editorPixels, signUp } from "./harness.ts";

/** Helpers of the canvas & arrangement e2e tests (multi-selection, inline text, identity). */

export interface LayerJson {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation?: number;
  text?: string;
  layers?: LayerJson[];
  bind?: Record<string, string>;
  [key: string]: unknown;
}

export interface DocJson {
  key: string;
  slots: { name: string; type: "text" | "image" | "color"; rich?: boolean; default?: string }[];
  frames: { name: string; width: number; height: number; layers: LayerJson[] }[];
  sample?: Record<string, string>;
}

export async function currentDoc(page: Page): Promise<DocJson> {
  return page.evaluate(() =>
    (window as unknown as { __pictor: { currentDocument(): never } }).__pictor.currentDocument(),
  );
}

/** Signs up through the UI and returns the key and an API caller. */
export async function signedUp(page: Page, url: string, name: string) {
  await page.goto(url);
  await page.evaluate(() => sessionStorage.clear());
  const key = await signUp(page, url, name);
  await page.getByTestId("continue").click();
  await page.getByTestId("template-grid").waitFor();
  return { key, call: apiClient(url, key) };
}

/** Opens a template in the editor and waits until every frame has been drawn once. */
export async function openEditor(page: Page, url: string, id: string): Promise<void> {
  await page.goto(`${url}/#/t/${id}`);
  await page.getByTestId("editor").waitFor({ timeout: 90_000 });
  await page.waitForFunction(() => document.querySelectorAll(".frame-canvas").length > 0);
}

/** RGBA (straight; the frames here are opaque) of a frame of the open document, via the test hook. */
export async function framePixels(page: Page, frame: string, document?: unknown) {
  if (document === undefined) {
    const p = await editorPixels(page, frame, {}, 1);
    return { ...p, rgba: Buffer.from(p.base64 ?? "", "base64") };
  }
  const p = await page.evaluate(
    (args) =>
      (
        window as unknown as {
          __pictor: { renderRGBA(o: unknown): Promise<{ sha256: string; width: number; base64?: string }> };
        }
      ).__pictor.renderRGBA({ ...args, bytes: true }),
    { frame, document, scale: 1 },
  );
  return { ...p, rgba: Buffer.from(p.base64 ?? "", "base64") };
}

export function pixelAt(rgba: Buffer, width: number, x: number, y: number): number[] {
  const i = (y * width + x) * 4;
  return [...rgba.subarray(i, i + 4)];
}

export function hex(rgb: number[]): string {
  return `#${rgb
    .slice(0, 3)
    .map((v) => v.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase()}`;
}

/**
 * Waits until the visible canvas of a frame shows exactly the engine's pixels of the current
 * document (opaque frames at zoom <= 100 % are drawn 1:1), and returns them.
 */
export async function canvasShowsDocument(page: Page, frame: string): Promise<Buffer> {
  const expected = await framePixels(page, frame);
  await page.waitForFunction(
    async ({ frame, sha }) => {
      const canvas = document.querySelector(
        `[data-testid="frame-canvas-${frame}"]`,
      ) as HTMLCanvasElement | null;
      const ctx = canvas?.getContext("2d");
      if (!canvas || !ctx) return false;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const digest = await crypto.subtle.digest("SHA-256", data);
      const got = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      return got === sha;
    },
    { frame, sha: expected.sha256 },
    { timeout: 15_000 },
  );
  return expected.rgba;
}
