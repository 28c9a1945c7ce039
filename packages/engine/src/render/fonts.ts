import type { CanvasKit, FontCollection, Typeface, TypefaceFontProvider } from "canvaskit-wasm";
import type { FontFace, FontSet } from "../api.ts";

// Characters that never need a glyph of their own: whitespace, joiners and direction marks,
// variation selectors, emoji tag characters and skin-tone modifiers (the emoji font shapes those
// together with their base character).
const NO_GLYPH_RANGES: readonly (readonly [number, number])[] = [
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0xfe00, 0xfe0f],
  [0xe0000, 0xe007f],
  [0x1f3fb, 0x1f3ff],
];
const WHITESPACE = /\s/u;

function needsGlyph(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  return !WHITESPACE.test(ch) && !NO_GLYPH_RANGES.some(([from, to]) => cp >= from && cp <= to);
}

/**
 * Fonts registered once per engine: one TypefaceFontProvider with every face of the FontSet under
 * its family name, and one FontCollection over it so Paragraph reuses shaping caches across renders.
 * Font fallback is only the explicit list given to each paragraph; system fonts are never consulted.
 */
export class FontLibrary {
  readonly collection: FontCollection;
  readonly fallback: readonly string[];
  private readonly companions: Readonly<Record<string, string>>;
  /** The first fallback family with a glyph for U+1F600, used first for emoji-presentation runs. */
  readonly emojiFamily: string | null;
  private readonly provider: TypefaceFontProvider;
  /** One face per family, used only to ask which characters the family has glyphs for. */
  private readonly coverage = new Map<string, Typeface>();

  private readonly canvasKit: CanvasKit;

  constructor(canvasKit: CanvasKit, fonts: FontSet) {
    this.canvasKit = canvasKit;
    this.provider = canvasKit.TypefaceFontProvider.Make();
    for (const face of fonts.faces) this.provider.registerFont(face.bytes, face.family);
    // The provider's own typefaces answer coverage questions: no second copy of 65 MB of font bytes.
    const upright = { weight: canvasKit.FontWeight.Normal, slant: canvasKit.FontSlant.Upright };
    for (const family of new Set(fonts.faces.map((face) => face.family))) {
      const typeface = this.provider.matchFamilyStyle(family, upright);
      if (typeface) this.coverage.set(family, typeface);
    }
    this.collection = canvasKit.FontCollection.Make();
    this.collection.setDefaultFontManager(this.provider);
    this.fallback = [...fonts.fallback];
    this.companions = { ...fonts.companions };
    this.emojiFamily =
      this.fallback.find((family) => this.missingCharacters(family, "\u{1F600}").length === 0) ?? null;
  }

  /**
   * Registers faces after construction (a host's uploaded fonts). Use family names never looked up
   * before: the FontCollection caches a family it could not find, so a face added later under a
   * name some text already asked for would stay unused.
   */
  addFaces(faces: readonly FontFace[]): void {
    const upright = { weight: this.canvasKit.FontWeight.Normal, slant: this.canvasKit.FontSlant.Upright };
    for (const face of faces) this.provider.registerFont(face.bytes, face.family);
    for (const family of new Set(faces.map((face) => face.family))) {
      if (this.coverage.has(family)) continue;
      const typeface = this.provider.matchFamilyStyle(family, upright);
      if (typeface) this.coverage.set(family, typeface);
    }
  }

  hasFamily(family: string): boolean {
    return this.coverage.has(family);
  }

  /**
   * The families a paragraph in `family` tries, in order: the family, its companion, then the
   * fallback list.
   */
  familiesFor(family: string): string[] {
    const companion = this.companions[family];
    const first = companion ? [family, companion] : [family];
    return [...first, ...this.fallback.filter((f) => !first.includes(f))];
  }

  /**
   * Distinct characters of `text` that neither `family` nor its companion has a glyph for (all of them
   * if the family is unknown): what other fonts drew.
   */
  missingFromFamily(family: string, text: string): string[] {
    const missing = this.missingCharacters(family, text);
    const companion = this.companions[family];
    if (!companion || missing.length === 0) return missing;
    const alsoMissing = new Set(this.missingCharacters(companion, missing.join("")));
    return missing.filter((ch) => alsoMissing.has(ch));
  }

  /** Distinct characters of `text` that `family` has no glyph for (all of them if the family is unknown). */
  missingCharacters(family: string, text: string): string[] {
    const typeface = this.coverage.get(family);
    const missing = new Set<string>();
    const candidates = [...new Set(text)].filter(needsGlyph);
    if (candidates.length === 0) return [];
    if (!typeface) return candidates;
    const glyphs = typeface.getGlyphIDs(candidates.join(""), candidates.length);
    candidates.forEach((ch, index) => {
      if (glyphs[index] === 0) missing.add(ch);
    });
    return [...missing];
  }

  dispose(): void {
    for (const typeface of this.coverage.values()) typeface.delete();
    this.coverage.clear();
    this.collection.delete();
    this.provider.delete();
  }
}
