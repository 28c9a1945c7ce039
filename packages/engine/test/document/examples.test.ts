import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { FONT_FAMILIES } from "../../../fonts/src/manifest.ts";
import type { FrameT, Layer, TemplateDocumentT } from "../../src/document/schema.ts";
import { validateDocument } from "../../src/document/validate.ts";
import { EXAMPLES_DIR } from "./helpers.ts";

const files = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith(".json"));

function load(file: string): TemplateDocumentT {
  const result = validateDocument(JSON.parse(readFileSync(new URL(file, EXAMPLES_DIR), "utf8")));
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.errors, null, 2)}`);
  return result.document;
}

function* layersOf(layers: readonly Layer[]): Generator<Layer> {
  for (const layer of layers) {
    yield layer;
    if (layer.type === "group" || layer.type === "stack") yield* layersOf(layer.layers);
  }
}

/** The fonts a layer draws in: a text's, a progress label's, a chart's labels'. */
function fontsOf(layer: Layer): { family: string; weight?: number; style?: string }[] {
  if (layer.type === "text") return [layer.font];
  if (layer.type === "progress") return layer.label === undefined ? [] : [layer.label.font];
  if (layer.type === "chart") return [layer.font ?? { family: "Inter" }];
  return [];
}

/** Slots a frame draws (bindings, repeats) or reads (`visible_when` conditions). */
function usedSlots(frame: FrameT): string[] {
  const names = Object.values(frame.bind ?? {});
  for (const layer of layersOf(frame.layers)) {
    names.push(...Object.values(layer.bind ?? {}));
    if (layer.visible_when !== undefined) names.push(layer.visible_when.slot);
    if (layer.type === "stack" && layer.repeat !== undefined) names.push(layer.repeat.slot);
  }
  return names;
}

const shippedFaces = new Set(
  FONT_FAMILIES.flatMap((f) => f.faces.map((face) => `${face.family}/${face.weight}/${face.style}`)),
);

describe("example templates", () => {
  it("has at least five", () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  describe.each(files)("%s", (file) => {
    const doc = load(file);

    it("has text, image and colour slots (and maybe data slots), all used and all given a sample value", () => {
      const types = new Set(doc.slots.map((s) => s.type));
      expect([...types]).toEqual(expect.arrayContaining(["color", "image", "text"]));
      const used = new Set(doc.frames.flatMap(usedSlots));
      for (const slot of doc.slots) expect(used, `slot ${slot.name} is never used`).toContain(slot.name);
      expect(Object.keys(doc.sample ?? {}).sort()).toEqual(doc.slots.map((s) => s.name).sort());
    });

    it("uses only faces of the shipped font set", () => {
      for (const frame of doc.frames) {
        for (const layer of layersOf(frame.layers)) {
          for (const font of fontsOf(layer)) {
            const face = `${font.family}/${font.weight ?? 400}/${font.style ?? "normal"}`;
            expect(shippedFaces, `${frame.name}/${layer.id}`).toContain(face);
          }
        }
      }
    });

    it("has sample images that exist, are JPEG 800-1600 px and under 200 KB", async () => {
      for (const slot of doc.slots.filter((s) => s.type === "image")) {
        const url = new URL(String(doc.sample?.[slot.name] ?? ""), new URL(file, EXAMPLES_DIR));
        expect(existsSync(url), url.pathname).toBe(true);
        expect(statSync(url).size).toBeLessThan(200 * 1024);
        const meta = await sharp(readFileSync(url)).metadata();
        expect(meta.format).toBe("jpeg");
        expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeGreaterThanOrEqual(800);
        expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(1600);
      }
    });
  });

  it("use groups, rotation, opacity, corner radii, max_lines, shrink, uppercase and letter spacing somewhere", () => {
    const layers = files.flatMap((f) => load(f).frames.flatMap((frame) => [...layersOf(frame.layers)]));
    const text = layers.filter((l) => l.type === "text");
    expect(layers.some((l) => l.type === "group")).toBe(true);
    expect(layers.some((l) => (l.rotation ?? 0) !== 0)).toBe(true);
    expect(layers.some((l) => l.opacity !== undefined && l.opacity < 1)).toBe(true);
    expect(layers.some((l) => l.type === "shape" && Array.isArray(l.corner_radius))).toBe(true);
    expect(layers.some((l) => l.type === "image" && (l.corner_radius ?? 0) > 0)).toBe(true);
    expect(layers.some((l) => l.type === "shape" && l.shape === "ellipse")).toBe(true);
    expect(text.some((l) => l.max_lines !== undefined)).toBe(true);
    expect(text.some((l) => l.fit === "shrink")).toBe(true);
    expect(text.some((l) => l.transform === "uppercase")).toBe(true);
    expect(text.some((l) => (l.font.letter_spacing ?? 0) !== 0)).toBe(true);
    expect(text.some((l) => l.font.style === "italic")).toBe(true);
  });

  it("social-post has the Instagram post and story as two frames of one template", () => {
    const doc = load("social-post.json");
    expect(doc.frames.map((f) => [f.name, f.width, f.height])).toEqual([
      ["post", 1080, 1080],
      ["story", 1080, 1920],
    ]);
  });

  it("og-card is close to the benchmark reference scene", () => {
    const doc = load("og-card.json");
    const frame = doc.frames[0];
    expect([frame?.width, frame?.height]).toEqual([1200, 630]);
    const layers = [...layersOf(frame?.layers ?? [])];
    const photo = layers.find((l) => l.type === "image");
    expect(photo).toMatchObject({ fit: "cover", width: 600, height: 630 });
    expect(
      layers.some(
        (l) =>
          l.type === "shape" &&
          typeof l.fill === "string" &&
          l.fill.length === 9 &&
          l.corner_radius !== undefined,
      ),
    ).toBe(true);
    const sizes = layers.flatMap((l) => (l.type === "text" ? [l.font.size] : []));
    expect(sizes).toContain(64);
    expect(sizes).toContain(28);
    const sample = doc.sample as Record<string, string>;
    expect(sample.headline?.length).toBeGreaterThanOrEqual(55);
    expect(sample.headline?.length).toBeLessThanOrEqual(65);
    expect(sample.excerpt?.split(/\s+/).length).toBeGreaterThanOrEqual(18);
  });

  it("certificate uses serif faces and border strokes", () => {
    const doc = load("certificate.json");
    const layers = doc.frames.flatMap((f) => [...layersOf(f.layers)]);
    const serif = new Set(FONT_FAMILIES.filter((f) => f.category === "serif").map((f) => f.family));
    const families = layers.flatMap((l) => (l.type === "text" ? [l.font.family] : []));
    expect(families.every((f) => serif.has(f))).toBe(true);
    expect(layers.filter((l) => l.type === "shape" && l.stroke).length).toBeGreaterThanOrEqual(2);
  });
});
