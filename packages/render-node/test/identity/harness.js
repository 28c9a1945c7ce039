// Runs in headless Chromium. Loads the engine bundle and the same canvaskit.wasm as Node, the same
// font bytes as Node's loadFontSet(), and images prepared by the Node host; renders and reports a
// SHA-256 of the RGBA so Node can compare without moving megabytes over the DevTools protocol.
import { CanvasKitInit, createEngine, iconSetFromNodes } from "/pictor-engine.browser.js";

let engine;
let lastPixels = new Uint8Array(0);

const fetchBytes = async (url) => {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
};

const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

window.pictorHarness = {
  async init() {
    const canvasKit = await CanvasKitInit({ locateFile: (file) => `/canvaskit/${file}` });
    const manifest = await (await fetch("/fontset.json")).json();
    const faces = await Promise.all(
      manifest.faces.map(async (f) => ({
        family: f.family,
        weight: f.weight,
        style: f.style,
        bytes: await fetchBytes(f.url),
      })),
    );
    const icons = iconSetFromNodes(await (await fetch("/icons.json")).json());
    engine = createEngine({
      canvasKit,
      fonts: { faces, fallback: manifest.fallback, companions: manifest.companions },
      icons,
    });
    return { faces: faces.length };
  },

  /** images: [{ key, width, height, upscaled, url }] prepared by the Node host for this render. */
  async render(document, options, images) {
    const prepared = new Map();
    for (const image of images) {
      const rgba = await fetchBytes(image.url);
      prepared.set(image.key, { width: image.width, height: image.height, upscaled: image.upscaled, rgba });
    }
    const plannedKeys = engine.planImages(document, options).map((r) => r.key);
    const result = engine.render(document, { ...options, images: prepared });
    // The result is a view of wasm memory the next render reuses: keep a copy for uploadLast().
    lastPixels = result.pixels.slice();
    const digest = await crypto.subtle.digest("SHA-256", lastPixels);
    return {
      width: result.width,
      height: result.height,
      opaque: result.opaque,
      sha256: hex(digest),
      plannedKeys,
      warnings: result.warnings.map((w) => `${w.code}:${w.layer ?? ""}:${w.slot ?? ""}`),
    };
  },

  async uploadLast(url) {
    const res = await fetch(url, { method: "POST", body: lastPixels });
    if (!res.ok) throw new Error(`POST ${url}: ${res.status}`);
  },
};
window.pictorHarnessReady = true;
