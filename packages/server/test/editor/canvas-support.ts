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
 * The canvas's RGBA (straight, as the browser holds it) once it shows exactly `expected` (base64
 * RGBA of the same size). The predicate is synchronous: waitForFunction does not await a promise, and
 * an async predicate's promise is truthy at once (this helper's earlier SHA-256 check never waited).
 */
export async function canvasShowing(page: Page, frame: string, expected: string): Promise<Buffer> {
  const selector = `[data-testid="frame-canvas-${frame}"]`;
  await page.waitForFunction(
    ({ selector, expected }) => {
      const canvas = document.querySelector(selector) as HTMLCanvasElement | null;
      const ctx = canvas?.getContext("2d");
      if (!canvas || !ctx) return false;
      const held = window as unknown as { expectedPixels?: { base64: string; bytes: Uint8Array } };
      if (held.expectedPixels?.base64 !== expected) {
        const binary = atob(expected);
        held.expectedPixels = { base64: expected, bytes: Uint8Array.from(binary, (c) => c.charCodeAt(0)) };
      }
      const want = held.expectedPixels.bytes;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      if (data.length !== want.length) return false;
      for (let i = 0; i < data.length; i++) if (data[i] !== want[i]) return false;
      return true;
    },
    { selector, expected },
    { timeout: 15_000 },
  );
  const base64 = await page.evaluate((selector) => {
    const canvas = document.querySelector(selector) as HTMLCanvasElement;
    const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = "";
    for (let i = 0; i < data.length; i += 0x8000)
      binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return btoa(binary);
  }, selector);
  return Buffer.from(base64, "base64");
}

/**
 * Waits until the visible canvas of a frame shows exactly the engine's pixels of the current
 * document (opaque frames at zoom <= 100 % are drawn 1:1), and returns them.
 */
export async function canvasShowsDocument(page: Page, frame: string): Promise<Buffer> {
  const expected = await framePixels(page, frame);
  return canvasShowing(page, frame, expected.base64 ?? "");
}
