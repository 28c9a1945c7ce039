import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { CanvasKit, Typeface } from "canvaskit-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  FALLBACK_FAMILIES,
  FONT_FACES,
  FONT_FAMILIES,
  fontFileName,
  fontFilePath,
  loadFontSet,
  publicFontFiles,
} from "../src/index.ts";

const require = createRequire(import.meta.url);

function tableTags(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(4);
  return Array.from({ length: count }, (_, i) =>
    String.fromCharCode(...bytes.subarray(12 + 16 * i, 16 + 16 * i)),
  );
}

describe("font manifest", () => {
  it("ships a catalogue of at least 40 families in every picker category, 4 or more of them script or handwriting", () => {
    const names = FONT_FAMILIES.map((f) => f.family);
    expect(names.length).toBeGreaterThanOrEqual(40);
    const count = (category: string) => FONT_FAMILIES.filter((f) => f.category === category).length;
    for (const category of ["sans", "serif", "display", "mono", "script", "handwriting"]) {
      expect(count(category), category).toBeGreaterThan(0);
    }
    expect(count("script") + count("handwriting")).toBeGreaterThanOrEqual(4);
    // Each family with the weights its package has: Inter from Thin to Black, upright and italic.
    const inter = FONT_FAMILIES.find((f) => f.family === "Inter");
    expect(inter?.faces.map((f) => `${f.weight}${f.style === "italic" ? "i" : ""}`).join(" ")).toBe(
      "100 100i 200 200i 300 300i 400 400i 500 500i 600 600i 700 700i 800 800i 900 900i",
    );
    for (const required of [
      "Inter",
      "Roboto",
      "Montserrat",
      "Lora",
      "Merriweather",
      "Playfair Display",
      "Bebas Neue",
      "Oswald",
      "Roboto Condensed",
      "JetBrains Mono",
      "Noto Sans",
      "Noto Serif",
    ]) {
      expect(names).toContain(required);
    }
  });

  it("lists only known families in the fallback, in the documented order", () => {
    const names = new Set(FONT_FAMILIES.map((f) => f.family));
    for (const family of FALLBACK_FAMILIES) expect(names).toContain(family);
    expect(FALLBACK_FAMILIES.at(-1)).toBe("Noto Color Emoji");
    expect(FALLBACK_FAMILIES.indexOf("Noto Sans SC")).toBeLessThan(FALLBACK_FAMILIES.indexOf("Noto Sans JP"));
  });

  it("gives every face a unique public file name", () => {
    const names = FONT_FACES.map(fontFileName);
    expect(new Set(names).size).toBe(names.length);
    const urls = publicFontFiles("/fonts/").map((f) => f.urlPath);
    expect(urls).toContain("/fonts/Inter_400Regular.ttf");
  });

  it("points every face at an existing TrueType file", () => {
    for (const face of FONT_FACES) {
      const bytes = readFileSync(fontFilePath(face));
      const magic = bytes.readUInt32BE(0);
      expect([0x00010000, 0x74727565], face.file).toContain(magic);
      expect(tableTags(bytes), face.file).toContain("cmap");
    }
  });

  it("ships the emoji face as COLR outlines (which Skia draws in colour), without the SVG table", () => {
    const face = FONT_FACES.find((f) => f.family === "Noto Color Emoji");
    if (!face) throw new Error("no emoji face");
    const tags = tableTags(readFileSync(fontFilePath(face)));
    expect(tags).toContain("COLR");
    expect(tags).toContain("CPAL");
    expect(tags).not.toContain("SVG ");
  });

  it("loads the font set once and shares it", async () => {
    const first = loadFontSet();
    expect(loadFontSet()).toBe(first);
    const set = await first;
    expect(set.faces).toHaveLength(FONT_FACES.length);
    expect(set.fallback).toEqual([...FALLBACK_FAMILIES]);
    for (const face of set.faces) expect(face.bytes.byteLength).toBeGreaterThan(10_000);
  });
});

describe("script coverage of the fallback list", () => {
  let canvasKit: CanvasKit;
  const typefaces = new Map<string, Typeface>();

  beforeAll(async () => {
    const init = require("canvaskit-wasm") as (opts: {
      locateFile: (file: string) => string;
    }) => Promise<CanvasKit>;
    const bin = `${require.resolve("canvaskit-wasm/bin/canvaskit.js").replace(/canvaskit\.js$/, "")}`;
    canvasKit = await init({ locateFile: (file) => bin + file });
    const set = await loadFontSet();
    for (const face of set.faces) {
      if (face.weight !== 400 || face.style !== "normal") continue;
      const copy = face.bytes.slice().buffer;
      const typeface = canvasKit.Typeface.MakeTypefaceFromData(copy);
      if (!typeface) throw new Error(`CanvasKit cannot parse ${face.family}`);
      typefaces.set(face.family, typeface);
    }
  });

  it("parses every face of the set with CanvasKit", async () => {
    const set = await loadFontSet();
    const unreadable = set.faces.filter((face) => {
      const typeface = canvasKit.Typeface.MakeTypefaceFromData(face.bytes.slice().buffer);
      const ok = typeface !== null && typeface.getGlyphIDs("A")[0] !== undefined;
      typeface?.delete();
      return !ok;
    });
    expect(unreadable.map((f) => `${f.family} ${f.weight} ${f.style}`)).toEqual([]);
  });

  const samples: Record<string, string> = {
    Arabic: "مرحبا بالعالم",
    Hebrew: "שלום עולם",
    Devanagari: "नमस्ते दुनिया",
    Thai: "สวัสดีชาวโลก",
    Chinese: "你好世界汉字们",
    Japanese: "こんにちは世界カタカナ",
    Korean: "안녕하세요 세계",
    Emoji: "😀🎉👍🇫🇷",
    Cyrillic: "Привет мир",
    Greek: "Γειά σου κόσμε",
  };

  for (const [script, text] of Object.entries(samples)) {
    it(`covers ${script} with some family of the fallback list`, () => {
      const letters = [...text.replace(/\s/g, "")];
      const missing = letters.filter((ch) =>
        FALLBACK_FAMILIES.every((family) => {
          const typeface = typefaces.get(family);
          if (!typeface) throw new Error(`no regular face for ${family}`);
          return typeface.getGlyphIDs(ch)[0] === 0;
        }),
      );
      expect(missing).toEqual([]);
    });
  }
});
