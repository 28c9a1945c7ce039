import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Engine, PreparedImage, TemplateDocumentT, ValueFormatT } from "@pictor/engine";
import { createEngine, formatDate, formatNumber, validateDocument } from "@pictor/engine";
import { loadDeferredFontSet, loadFontSet } from "@pictor/fonts";
import { loadCanvasKit, loadIconSet, prepareImage } from "@pictor/render-node";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildBrowserBundle } from "../../../engine/browser/build.ts";
import { CHROMIUM, haveChromium, launchChromium } from "../../../engine/browser/chromium.ts";
import { StaticServer } from "./static-server.ts";

/**
 * Acceptance (issue 2): every example template, every frame, at scales 1 and 2, rendered by the engine
 * in headless Chromium (the same bundle and canvaskit.wasm) gives RGBA byte-identical to the Node
 * render. Both sides get the same font bytes and the same pixels prepared by the Node host, as the
 * editor does: it draws with the server's prepared images, never decodes sources itself.
 */

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../../..");
const templatesDir = join(repoRoot, "examples/templates");
const outputDir = join(repoRoot, "test-output/identity");
const SCALES = [1, 2] as const;

interface Case {
  file: string;
  frame: string;
  scale: number;
}

const templateFiles = existsSync(templatesDir)
  ? readdirSync(templatesDir)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : [];
/** Validated (and migrated) as every host does before rendering; an invalid example fails loudly here. */
function loadTemplate(file: string): TemplateDocumentT {
  const result = validateDocument(JSON.parse(readFileSync(join(templatesDir, file), "utf8")));
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.errors)}`);
  return result.document;
}
const documents = new Map<string, TemplateDocumentT>(templateFiles.map((file) => [file, loadTemplate(file)]));
const cases: Case[] = templateFiles.flatMap((file) =>
  (documents.get(file)?.frames ?? []).flatMap((frame) =>
    SCALES.map((scale) => ({ file, frame: frame.name, scale })),
  ),
);

const inCI = Boolean(process.env.CI) && !["0", "false"].includes(process.env.CI ?? "");
if (!haveChromium && !inCI) {
  console.warn(
    `[identity] SKIPPED: ${CHROMIUM} is not installed (apt-get install chromium). Under CI=true this is a failure.`,
  );
}

interface BrowserRender {
  width: number;
  height: number;
  opaque: boolean;
  sha256: string;
  plannedKeys: string[];
  warnings: string[];
}

interface ServedImage {
  key: string;
  width: number;
  height: number;
  upscaled: boolean;
  url: string;
}

declare global {
  interface Window {
    pictorHarness: {
      init(): Promise<{ faces: number }>;
      render(document: unknown, options: unknown, images: ServedImage[]): Promise<BrowserRender>;
      uploadLast(url: string): Promise<void>;
    };
    pictorHarnessReady?: boolean;
  }
}

/** Example image sources are paths relative to the template file (spec: templates-as-code). */
async function readSource(src: string): Promise<Uint8Array> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src)) throw new Error(`identity test renders offline; got URL ${src}`);
  return new Uint8Array(await readFile(resolve(templatesDir, src)));
}

function differingPixels(a: Uint8Array, b: Uint8Array): { count: number; maxChannelDelta: number } {
  let count = 0;
  let maxChannelDelta = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i += 4) {
    let differs = false;
    for (let c = 0; c < 4; c++) {
      const delta = Math.abs((a[i + c] ?? 0) - (b[i + c] ?? 0));
      if (delta > 0) differs = true;
      if (delta > maxChannelDelta) maxChannelDelta = delta;
    }
    if (differs) count++;
  }
  return { count, maxChannelDelta };
}

/** Diagnostic PNGs only: the bytes are premultiplied, written as if straight (exact where opaque). */
async function writePng(file: string, rgba: Uint8Array, width: number, height: number): Promise<void> {
  await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 1 })
    .toFile(file);
}

(haveChromium || inCI ? describe : describe.skip)("engine identity: headless Chromium vs Node", () => {
  let server: StaticServer;
  let browser: Browser | undefined;
  let page: Page;
  let engine: Engine;
  let bundleDir: string | undefined;

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`CI is set but ${CHROMIUM} is missing: install Debian's chromium`);
    // A private output directory: other test files may build the bundle into dist/ at the same time.
    bundleDir = await mkdtemp(join(tmpdir(), "pictor-identity-"));
    const [{ bundleFile, wasmFile }, fonts, canvasKit, icons] = await Promise.all([
      buildBrowserBundle(bundleDir),
      loadFontSet(),
      loadCanvasKit(),
      loadIconSet(),
    ]);
    // Node as the API renders: families loaded when a text needs them; the browser registers every
    // face up front, as the editor does. Identity requires the same pixels either way.
    engine = createEngine({ canvasKit, fonts: loadDeferredFontSet(), icons });

    server = new StaticServer();
    await server.start();
    server.serveFile("/", join(here, "harness.html"));
    server.serveFile("/harness.js", join(here, "harness.js"));
    server.serveFile("/pictor-engine.browser.js", bundleFile);
    server.serveFile("/pictor-engine.browser.js.map", `${bundleFile}.map`);
    server.serveFile("/canvaskit/canvaskit.wasm", wasmFile);
    // The very icon-nodes.json Node's loadIconSet reads, as the editor bundles it.
    server.serveFile("/icons.json", fileURLToPath(import.meta.resolve("lucide-static/icon-nodes.json")));
    const manifest = {
      fallback: fonts.fallback,
      companions: fonts.companions,
      faces: fonts.faces.map((face, i) => {
        const url = `/fonts/${i}`;
        server.serveBytes(url, face.bytes, "font/ttf");
        return { family: face.family, weight: face.weight, style: face.style, url };
      }),
    };
    server.serveBytes(
      "/fontset.json",
      new TextEncoder().encode(JSON.stringify(manifest)),
      "application/json",
    );

    browser = await launchChromium();
    page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (err) => pageErrors.push(err.message));
    await page.goto(`${server.origin}/`);
    await page
      .waitForFunction(() => window.pictorHarnessReady === true, undefined, { timeout: 30_000 })
      .catch(() => {
        throw new Error(`harness did not load: ${pageErrors.join("; ") || "no page error reported"}`);
      });
    const { faces } = await page.evaluate(() => window.pictorHarness.init());
    expect(faces).toBe(fonts.faces.length);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
  });

  test("formats numbers and dates to the same text as Node: the engine's pinned Intl, not each runtime's ICU", async () => {
    const numbers: [number, ValueFormatT, string][] = [
      [1234567.891, { decimals: 2 }, "en-US"],
      [1234567.891, { decimals: 2 }, "de-DE"],
      [1234567.891, { decimals: 2 }, "ar-EG"],
      [7250.5, { style: "currency", currency: "EUR" }, "de-DE"],
      [7250.5, { style: "currency", currency: "EGP" }, "ar-EG"],
      [0.725, { style: "percent", max_decimals: 1 }, "fr"],
      [1_250_000, { style: "compact" }, "ja"],
      [98765, { style: "compact" }, "hi"],
    ];
    const dates: [string, ValueFormatT, string][] = [
      ["2026-11-28T18:30:00Z", { date: "full", time: "short" }, "en-US"],
      ["2026-11-28T18:30:00Z", { date: "long", time: "short" }, "de-DE"],
      ["2026-11-28", { date: "long" }, "ar-EG"],
      [
        "2026-11-28T23:30:00-05:00",
        { parts: { weekday: "short", hour: "numeric", minute: "2-digit" } },
        "zh",
      ],
    ];
    const inNode = [
      ...numbers.map(([value, format, locale]) => formatNumber(value, format, locale)),
      ...dates.map(([value, format, locale]) => formatDate(value, format, locale)),
    ];
    // As source text: the test runner rewrites `import()` in functions it compiles.
    const inBrowser = await page.evaluate(`(async () => {
      const engine = await import("/pictor-engine.browser.js");
      const [numbers, dates] = ${JSON.stringify([numbers, dates])};
      return [
        ...numbers.map(([value, format, locale]) => engine.formatNumber(value, format, locale)),
        ...dates.map(([value, format, locale]) => engine.formatDate(value, format, locale)),
      ];
    })()`);
    expect(inBrowser).toEqual(inNode);
    expect(inNode[1]).toBe("1.234.567,89");
  });

  test("examples/templates holds templates to compare", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("$file frame $frame at scale $scale", async ({ file, frame, scale }) => {
    const document = documents.get(file) as TemplateDocumentT;
    const options = { frame, scale, values: document.sample ?? {} };

    const requests = engine.planImages(document, options);
    const images = new Map<string, PreparedImage>();
    const served: ServedImage[] = [];
    for (const [i, request] of requests.entries()) {
      if (request.src === "" || images.has(request.key)) continue;
      const image = await prepareImage(await readSource(request.src), request);
      images.set(request.key, image);
      const url = `/prepared/${i}`;
      server.serveBytes(url, image.rgba);
      served.push({
        key: request.key,
        width: image.width,
        height: image.height,
        upscaled: image.upscaled,
        url,
      });
    }

    const nodeResult = engine.render(document, { ...options, images });
    const nodeSha = createHash("sha256").update(nodeResult.pixels).digest("hex");
    const nodeWarnings = nodeResult.warnings.map((w) => `${w.code}:${w.layer ?? ""}:${w.slot ?? ""}`);
    // Copy before anything else renders: the result is a view of engine memory.
    const nodePixels = nodeResult.pixels.slice();

    const inBrowser = await page.evaluate(
      ([doc, opts, imgs]) => window.pictorHarness.render(doc, opts, imgs),
      [document, options, served] as const,
    );
    for (const { url } of served) server.unserve(url);

    expect(inBrowser.plannedKeys).toEqual(requests.map((r) => r.key));
    expect({ width: inBrowser.width, height: inBrowser.height, opaque: inBrowser.opaque }).toEqual({
      width: nodeResult.width,
      height: nodeResult.height,
      opaque: nodeResult.opaque,
    });
    expect(inBrowser.warnings).toEqual(nodeWarnings);

    if (inBrowser.sha256 !== nodeSha) {
      const uploadPath = "/upload/pixels";
      await page.evaluate((url) => window.pictorHarness.uploadLast(url), uploadPath);
      const browserPixels = server.takeUpload(uploadPath) ?? new Uint8Array(0);
      const { count, maxChannelDelta } = differingPixels(nodePixels, browserPixels);
      const base = join(outputDir, `${file.replace(/\.json$/, "")}-${frame}-x${scale}`);
      await mkdir(outputDir, { recursive: true });
      await writePng(`${base}-node.png`, nodePixels, nodeResult.width, nodeResult.height);
      if (browserPixels.length === nodePixels.length) {
        await writePng(`${base}-chromium.png`, browserPixels, nodeResult.width, nodeResult.height);
      }
      expect.fail(
        `Chromium and Node RGBA differ: ${count} of ${nodeResult.width * nodeResult.height} pixels ` +
          `(max channel delta ${maxChannelDelta}); wrote ${base}-{node,chromium}.png`,
      );
    }
  });

  // An animated frame drawn at a moment: the browser's engine (the editor's) draws the API's frame of
  // that moment, at its start, mid-way through the enters and at its last frame.
  test.each([0, 0.5, 23 / 12])("the animated example at t = %s s", async (time) => {
    const file = join(repoRoot, "examples/animated/launch-countdown.json");
    const checked = validateDocument(JSON.parse(readFileSync(file, "utf8")));
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const document = checked.document;
    const options = { time, values: document.sample ?? {} };
    const nodeResult = engine.render(document, options);
    const nodeSha = createHash("sha256").update(nodeResult.pixels).digest("hex");
    const inBrowser = await page.evaluate(([doc, opts]) => window.pictorHarness.render(doc, opts, []), [
      document,
      options,
    ] as const);
    expect(inBrowser.sha256).toBe(nodeSha);
  });

  // Icons come from each host's own copy of the icon data: this is where a difference would show.
  test.each(SCALES)("line, polygon, star, path and icon layers at scale %d", async (scale) => {
    const document = vectorKindsDocument();
    const nodeResult = engine.render(document, { scale });
    const nodeSha = createHash("sha256").update(nodeResult.pixels).digest("hex");
    const inBrowser = await page.evaluate(([doc, opts]) => window.pictorHarness.render(doc, opts, []), [
      document,
      { scale },
    ] as const);
    expect(inBrowser.sha256).toBe(nodeSha);
  });

  // Decorations set along a path and a bound colour keeping its design alpha (document v4): the
  // editor's engine draws them as the API's.
  test.each(SCALES)(
    "text decorations on a path and a bound colour's design alpha at scale %d",
    async (scale) => {
      const document = pathDecorationsDocument();
      const checked = validateDocument(document);
      expect(checked.ok ? [] : checked.errors).toEqual([]);
      const options = {
        scale,
        values: { ring: "Fresh <u>every</u> day · <s>frozen</s> · <mark>local</mark>", brand: "#2563EB" },
      };
      const nodeResult = engine.render(document, options);
      const nodeSha = createHash("sha256").update(nodeResult.pixels).digest("hex");
      const inBrowser = await page.evaluate(([doc, opts]) => window.pictorHarness.render(doc, opts, []), [
        document,
        options,
      ] as const);
      expect(inBrowser.sha256).toBe(nodeSha);
    },
  );
});

function pathDecorationsDocument(): TemplateDocumentT {
  return {
    version: 4,
    key: "path-decorations",
    name: "Path decorations",
    slots: [
      { name: "ring", type: "text", rich: true },
      { name: "brand", type: "color" },
    ],
    inline_styles: { mark: { background: "#FDE68A" } },
    frames: [
      {
        name: "main",
        width: 300,
        height: 200,
        background: "#FFFFFF",
        layers: [
          {
            id: "tint",
            type: "shape",
            shape: "ellipse",
            x: 40,
            y: 40,
            width: 120,
            height: 120,
            fill: "#FF000066",
            bind: { fill: "brand" },
          },
          {
            id: "ring",
            type: "text",
            x: 20,
            y: 20,
            width: 160,
            height: 160,
            text: "",
            font: { family: "Inter", size: 17, weight: 600 },
            color: "#1D3557",
            on_path: { shape: "circle" },
            bind: { text: "ring" },
          },
          {
            id: "plain",
            type: "text",
            x: 180,
            y: 80,
            width: 110,
            height: 40,
            text: "Underlined",
            font: { family: "Lora", size: 16 },
            color: "#6D28D9",
            underline: true,
            strikethrough: true,
            on_path: { shape: "path", d: "M0 30 Q 55 0, 110 30" },
          },
        ],
      },
    ],
  };
}

function vectorKindsDocument(): TemplateDocumentT {
  const gradient = {
    type: "linear" as const,
    angle: 90,
    stops: [
      { offset: 0, color: "#F4A261" },
      { offset: 1, color: "#E63946" },
    ],
  };
  const box = { x: 0, y: 0, width: 80, height: 80 };
  return {
    version: 4,
    key: "vector-kinds",
    name: "Vector kinds",
    slots: [],
    frames: [
      {
        name: "main",
        width: 460,
        height: 200,
        layers: [
          {
            ...box,
            id: "line",
            type: "line",
            y: 20,
            height: 0,
            stroke: { color: gradient, width: 6 },
            dash: [10, 4],
          },
          {
            ...box,
            id: "polygon",
            type: "polygon",
            x: 100,
            y: 40,
            sides: 6,
            corner_radius: 8,
            fill: gradient,
          },
          {
            ...box,
            id: "star",
            type: "star",
            x: 200,
            y: 40,
            points: 5,
            fill: "#2A9D8F",
            stroke: { color: "#1D355799", width: 4, align: "center" },
          },
          {
            ...box,
            id: "path",
            type: "path",
            x: 300,
            y: 40,
            d: "M0 0H10V10H0Z M3 3H7V7H3Z",
            fill_rule: "evenodd",
            fill: "#264653",
          },
          {
            ...box,
            id: "icon",
            type: "icon",
            x: 380,
            y: 40,
            icon: "palette",
            color: "#1D3557B0",
            rotation: 10,
          },
        ],
      },
    ],
  };
}
