import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { editorTestDistDir } from "@pictor/editor";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { CHROMIUM, haveChromium, launchChromium } from "../../../engine/browser/chromium.ts";
import { buildEditorOnce } from "./build-once.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../../..");
const BIN = join(repoRoot, "packages/server/bin/pictor.js");
/**
 * Screenshots go to test-output/ on every run; only `npm run screenshots:update` refreshes the copies
 * the README embeds, so a test run never leaves the work tree modified.
 */
export const SCREENSHOTS = process.env.PICTOR_UPDATE_SCREENSHOTS
  ? join(repoRoot, "docs/screenshots")
  : join(repoRoot, "test-output/screenshots");

export { CHROMIUM, haveChromium };
/** Under CI a missing Chromium fails the run; elsewhere the browser tests are skipped with a notice. */
export const inCI = Boolean(process.env.CI) && !["0", "false"].includes(process.env.CI ?? "");

export interface EditorHarness {
  url: string;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/** `pictor serve` as a child process on 127.0.0.1:0 with a fresh data dir. */
async function startServe(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data", dir, "--workers", "1"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    // The browser and the test share 127.0.0.1: one file's sign-outs, second accounts and probes
    // of refused keys must not spend the per-address budget of failed authentications that the
    // next test's calls need (that limiter has tests of its own, test/http-plugins).
    // The test entry's build (with the window.__pictor bridge), not the production one.
    env: {
      ...process.env,
      PICTOR_LOG_LEVEL: "warn",
      PICTOR_AUTH_FAILURES_BURST: "1000",
      PICTOR_EDITOR_DIR: editorTestDistDir,
    },
  });
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolveUrl(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`pictor serve exited with ${code}: ${err}`)));
  });
  return { child, url };
}

/**
 * Builds the editor's test entry (Vite) and the engine bundle first, so the test never serves a stale
 * dist, then starts the server on that build and a browser page sized like a laptop screen.
 */
export async function startEditorHarness(): Promise<EditorHarness> {
  if (!haveChromium)
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  await buildEditorOnce(repoRoot);
  const dir = mkdtempSync(join(tmpdir(), "pictor-editor-"));
  const { child, url } = await startServe(dir);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    url,
    browser,
    page,
    async close() {
      await browser.close();
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`page errors: ${errors.join("; ")}`);
    },
  };
}

/** Signs up through the UI; returns the API key the page showed once. */
export async function signUp(page: Page, url: string, name: string): Promise<string> {
  await page.goto(url);
  await page.getByTestId("signup-name").fill(name);
  await page.getByTestId("signup").click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  return key;
}

export function apiClient(url: string, key: string) {
  return async function call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const res = await fetch(new URL(path, url), {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        Authorization: `Bearer ${key}`,
        ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

export interface DocumentLike {
  key: string;
  slots: { name: string; type: "text" | "image" | "color" | "number" | "date" | "list" }[];
  frames: { name: string; width: number; height: number }[];
  sample?: Record<string, SlotSample>;
}

/** A slot's value as a document's sample holds it: text, a number, or list items. */
export type SlotSample = string | number | Record<string, string | number>[];

/** Slot values as the API's modifications (what a `curl` caller sends). */
export function modificationsOf(doc: DocumentLike, values: Record<string, SlotSample>) {
  return doc.slots
    .filter((s) => values[s.name] !== undefined)
    .map((s) => {
      const value = values[s.name] as SlotSample;
      if (s.type === "number") return { name: s.name, number: value };
      if (s.type === "list") return { name: s.name, items: value };
      if (s.type === "date") return { name: s.name, date: value };
      if (s.type === "text") return { name: s.name, text: value };
      if (s.type === "image") return { name: s.name, image_url: String(value).replace(/^asset:\/\//, "") };
      return { name: s.name, color: value };
    });
}

export interface ApiRender {
  rgba: Buffer;
  width: number;
  height: number;
  creditsCharged: number;
}

/** POST /v1/renders with wait, then the PNG decoded to straight RGBA by sharp. */
export async function renderThroughApi(
  url: string,
  key: string,
  body: { template: string; frame: string; scale: number; modifications: unknown[] },
): Promise<ApiRender> {
  const job = await apiClient(url, key)<{
    status: string;
    output_url: string | null;
    credits_charged: number;
    error: unknown;
  }>("/v1/renders", { body: { ...body, format: "png", wait: true } });
  if (job.status !== "completed" || !job.output_url)
    throw new Error(`render ${job.status}: ${JSON.stringify(job.error)}`);
  const png = Buffer.from(await (await fetch(new URL(job.output_url, url))).arrayBuffer());
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgba: data, width: info.width, height: info.height, creditsCharged: job.credits_charged };
}

export interface EditorPixels {
  sha256: string;
  width: number;
  height: number;
  opaque: boolean;
  base64?: string;
  warnings: { code: string }[];
  imageErrors: string[];
}

/** The engine pixels the editor draws for a frame, via the page's test hook. */
export async function editorPixels(
  page: Page,
  frame: string,
  values: Record<string, SlotSample>,
  scale: number,
): Promise<EditorPixels> {
  return page.evaluate(
    (args) =>
      (
        window as unknown as {
          __pictor: { renderRGBA(o: unknown): Promise<EditorPixels> };
        }
      ).__pictor.renderRGBA({ ...args, bytes: true }),
    { frame, values, scale },
  );
}

/**
 * Engine RGBA as the PNG holds it: opaque pixels are already straight; translucent ones go through
 * the same sharp unpremultiply the API's encoder applies.
 */
export async function straightRgba(pixels: EditorPixels): Promise<Buffer> {
  const bytes = Buffer.from(pixels.base64 ?? "", "base64");
  if (pixels.opaque) return bytes;
  return sharp(bytes, {
    raw: { width: pixels.width, height: pixels.height, channels: 4, premultiplied: true },
  })
    .raw()
    .toBuffer();
}

/** Waits for the autosave indicator to settle on "saved". */
export async function waitSaved(page: Page): Promise<void> {
  await page.getByTestId("save-state").filter({ hasText: "All changes saved" }).waitFor({ timeout: 20_000 });
}

/** Drags on the frame overlay between two points given in frame pixels. */
export async function dragOnFrame(
  page: Page,
  frame: string,
  from: { x: number; y: number },
  to: { x: number; y: number },
): Promise<void> {
  const overlay = page.getByTestId(`frame-overlay-${frame}`);
  await overlay.scrollIntoViewIfNeeded();
  const box = await overlay.boundingBox();
  if (!box) throw new Error(`frame ${frame} is not on screen`);
  const zoom = Number(await overlay.getAttribute("data-zoom"));
  await page.mouse.move(box.x + from.x * zoom, box.y + from.y * zoom);
  await page.mouse.down();
  await page.mouse.move(box.x + ((from.x + to.x) / 2) * zoom, box.y + ((from.y + to.y) / 2) * zoom, {
    steps: 4,
  });
  await page.mouse.move(box.x + to.x * zoom, box.y + to.y * zoom, { steps: 4 });
  await page.mouse.up();
}
