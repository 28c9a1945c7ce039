import type { CanvasKit, FontCollection, Typeface, TypefaceFontProvider } from "canvaskit-wasm";
import type { CodePointRanges, DeferredFontFamily, FontFace, FontSet } from "../api.ts";
import { type FaceMatch, type FaceStyle, matchFace } from "./font-match.ts";

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

/** Whether sorted inclusive ranges `[first, last, ...]` contain `cp` (binary search). */
export function rangesHave(ranges: CodePointRanges, cp: number): boolean {
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (ranges[mid * 2] as number)) hi = mid - 1;
    else if (cp > (ranges[mid * 2 + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

// Skia's paragraph shaper counts control, format and separator characters as resolved whatever the
// font (ICU's u_iscntrl): they never make a paragraph look further down its family list.
const ALWAYS_RESOLVED = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]$/u;

// Texts (and families) whose answers are kept before the lists start over.
const MAX_KEPT_TEXTS = 1024;
// Characters whose answers one family keeps before it starts over (a CJK family sees thousands).
const MAX_GLYPH_ANSWERS = 8192;

let graphemeSegmenter: Intl.Segmenter | undefined;

/**
 * Fonts registered once per engine: one TypefaceFontProvider with every face of the FontSet under
 * its family name, and one FontCollection over it so Paragraph reuses shaping caches across renders.
 * Font fallback is only the explicit list given to each paragraph; system fonts are never consulted.
 */
export class FontLibrary {
  collection: FontCollection;
  readonly fallback: readonly string[];
  private readonly companions: Readonly<Record<string, string>>;
  /** The first fallback family with a glyph for U+1F600, used first for emoji-presentation runs. */
  readonly emojiFamily: string | null;
  private readonly provider: TypefaceFontProvider;
  /** One face per family, used only to ask which characters the family has glyphs for. */
  private readonly coverage = new Map<string, Typeface>();

  private readonly canvasKit: CanvasKit;
  /** Families the host supplies on demand (FontSet.deferred), until they are loaded. */
  private readonly deferred = new Map<string, DeferredFontFamily>();
  /** What deferred families cover, loaded or not: exact for every face, where a typeface answers for one. */
  private readonly deferredCoverage = new Map<string, DeferredFontFamily>();
  /** familiesFor's lists, by family. */
  private readonly familyLists = new Map<string, string[]>();
  /** missingFromFamily's answers for families whose coverage is known, by family and text. */
  private readonly missingByText = new Map<string, readonly string[]>();
  /** Per family, whether its coverage face has a glyph for a character (missingCharacters' answers). */
  private readonly glyphAnswers = new Map<string, Map<string, boolean>>();
  /** Texts (with their family lists) whose families are loaded already. */
  private readonly prepared = new Set<string>();
  /** The weight and style of each face registered, by family (what matchFace chooses among). */
  private readonly faceStyles = new Map<string, FaceStyle[]>();

  constructor(canvasKit: CanvasKit, fonts: FontSet) {
    this.canvasKit = canvasKit;
    this.provider = canvasKit.TypefaceFontProvider.Make();
    for (const face of fonts.faces) this.register(face);
    // The provider's own typefaces answer coverage questions: no second copy of 65 MB of font bytes.
    const upright = { weight: canvasKit.FontWeight.Normal, slant: canvasKit.FontSlant.Upright };
    for (const family of new Set(fonts.faces.map((face) => face.family))) {
      const typeface = this.provider.matchFamilyStyle(family, upright);
      if (typeface) this.coverage.set(family, typeface);
    }
    for (const family of fonts.deferred ?? []) {
      if (this.coverage.has(family.family)) continue;
      this.deferred.set(family.family, family);
      this.deferredCoverage.set(family.family, family);
    }
    this.collection = this.makeCollection();
    this.fallback = [...fonts.fallback];
    this.companions = { ...fonts.companions };
    this.emojiFamily =
      this.fallback.find((family) => {
        const known = this.deferredCoverage.get(family);
        return known
          ? rangesHave(known.everyFace, 0x1f600)
          : this.missingCharacters(family, "\u{1F600}").length === 0;
      }) ?? null;
  }

  /** A FontCollection over the provider. A new one after faces are added: a collection caches the typefaces each family list resolved to, including the families it did not find. */
  private makeCollection(): FontCollection {
    const collection = this.canvasKit.FontCollection.Make();
    collection.setDefaultFontManager(this.provider);
    return collection;
  }

  private renewCollection(): void {
    const old = this.collection;
    this.collection = this.makeCollection();
    // Paragraphs laid out already hold their own reference.
    old.delete();
  }

  /** Families loaded from FontSet.deferred so far (for hosts and tests). */
  loadedDeferredFamilies(): string[] {
    return [...this.deferredCoverage.keys()].filter((family) => !this.deferred.has(family));
  }

  /** Loads deferred families (all their faces) not loaded yet; true if any was. */
  private load(families: Iterable<string>): boolean {
    const upright = { weight: this.canvasKit.FontWeight.Normal, slant: this.canvasKit.FontSlant.Upright };
    let loaded = false;
    for (const family of families) {
      const deferred = this.deferred.get(family);
      if (!deferred) continue;
      this.deferred.delete(family);
      for (const face of deferred.load()) this.register({ ...face, family });
      const typeface = this.provider.matchFamilyStyle(family, upright);
      if (typeface) this.coverage.set(family, typeface);
      loaded = true;
    }
    if (loaded) this.renewCollection();
    return loaded;
  }

  /**
   * Loads the deferred families a paragraph of `text` with the family list `families` needs, before
   * it is laid out, so it shapes exactly as with every face registered up front:
   * - the first family of the list the set has: the strut's metrics and the glyphs of text nothing
   *   covers come from it;
   * - for each character, every family of the list up to the first one whose faces all have it,
   *   that has it in some face (the first to resolve it, whatever the weight and style);
   * - every family of the list when a character that starts a grapheme is in none of them (what is
   *   drawn for it then depends on the whole list).
   * Families that are not deferred (registered up front, a host's uploads) are taken as they are.
   */
  prepareText(text: string, families: readonly string[]): void {
    if (this.deferred.size === 0) return;
    if (!families.some((family) => this.deferred.has(family))) return;
    // Shrink-to-fit lays the same text out many times: once prepared, a text and list are known.
    const key = `${families.join("\u0001")}\u0000${text}`;
    if (this.prepared.has(key)) return;
    const known = families.filter((family) => this.coverage.has(family) || this.deferred.has(family));
    const needed = new Set<string>(known.slice(0, 1));
    const open = new Set<number>();
    for (const ch of text) open.add(ch.codePointAt(0) as number);
    for (const family of known) {
      if (open.size === 0) break;
      const deferred = this.deferredCoverage.get(family);
      if (deferred) {
        for (const cp of open) {
          if (rangesHave(deferred.anyFace, cp)) needed.add(family);
          if (rangesHave(deferred.everyFace, cp)) open.delete(cp);
        }
      } else {
        const cps = [...open];
        const missing = new Set(this.missingCharacters(family, String.fromCodePoint(...cps)));
        for (const cp of cps) if (!missing.has(String.fromCodePoint(cp))) open.delete(cp);
      }
    }
    if (open.size > 0) {
      // Characters in no family: if one starts a grapheme, what is drawn for it depends on the whole list.
      graphemeSegmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
      for (const { segment } of graphemeSegmenter.segment(text)) {
        const first = segment.codePointAt(0) as number;
        if (open.has(first) && !ALWAYS_RESOLVED.test(String.fromCodePoint(first))) {
          for (const family of known) needed.add(family);
          break;
        }
      }
    }
    this.load(needed);
    if (this.prepared.size >= 512) this.prepared.clear();
    this.prepared.add(key);
  }

  /**
   * CanvasKit copies a typed array it is given (`new Uint8Array(data)`) before copying it into its
   * heap; a whole ArrayBuffer it only views. A CJK face is 10 MB of garbage fewer.
   */
  private register({ bytes, family, weight, style }: FontFace): void {
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    this.provider.registerFont(whole ? (bytes.buffer as ArrayBuffer) : bytes, family);
    const styles = this.faceStyles.get(family) ?? [];
    styles.push({ weight, italic: style === "italic" });
    this.faceStyles.set(family, styles);
  }

  /**
   * The face of `family` text of this weight and style is drawn with, and whether the shaper fakes
   * bold or italic on it (render/font-match.ts); null for a family with no face in the set.
   */
  faceFor(family: string, weight: number, italic: boolean): FaceMatch | null {
    return matchFace(this.faceStyles.get(family) ?? [], weight, italic);
  }

  /**
   * Registers faces after construction (a host's uploaded fonts). Use family names never looked up
   * before: the FontCollection caches a family it could not find, so a face added later under a
   * name some text already asked for would stay unused.
   */
  addFaces(faces: readonly FontFace[]): void {
    const upright = { weight: this.canvasKit.FontWeight.Normal, slant: this.canvasKit.FontSlant.Upright };
    for (const face of faces) this.register(face);
    for (const family of new Set(faces.map((face) => face.family))) {
      if (this.coverage.has(family)) continue;
      const typeface = this.provider.matchFamilyStyle(family, upright);
      if (typeface) this.coverage.set(family, typeface);
    }
    this.renewCollection();
  }

  hasFamily(family: string): boolean {
    return this.coverage.has(family) || this.deferred.has(family);
  }

  /**
   * The families a paragraph in `family` tries, in order: the family, its companion, then the
   * fallback list. The family and its companion are loaded if deferred (coverage questions and
   * warnings ask them).
   */
  familiesFor(family: string): string[] {
    const known = this.familyLists.get(family);
    if (known !== undefined) return known;
    const companion = this.companions[family];
    const first = companion ? [family, companion] : [family];
    if (this.deferred.size > 0) this.load(first);
    // The same (frozen) list for every paragraph in the family: paragraph builds key on it.
    const list = Object.freeze([...first, ...this.fallback.filter((f) => !first.includes(f))]) as string[];
    if (this.familyLists.size >= MAX_KEPT_TEXTS) this.familyLists.clear();
    this.familyLists.set(family, list);
    return list;
  }

  /**
   * Distinct characters of `text` that neither `family` nor its companion has a glyph for (all of them
   * if the family is unknown): what other fonts drew.
   */
  missingFromFamily(family: string, text: string): string[] {
    const companion = this.companions[family];
    // Known families' answers never change (their coverage faces stay): kept, as every text drawn asks.
    const stable = this.coverage.has(family) && (!companion || this.coverage.has(companion));
    const key = `${family}\u0000${text}`;
    const known = stable ? this.missingByText.get(key) : undefined;
    if (known !== undefined) return [...known];
    const missing = this.missingCharacters(family, text);
    const answer =
      !companion || missing.length === 0
        ? missing
        : ((alsoMissing) => missing.filter((ch) => alsoMissing.has(ch)))(
            new Set(this.missingCharacters(companion, missing.join(""))),
          );
    if (stable) {
      if (this.missingByText.size >= MAX_KEPT_TEXTS) this.missingByText.clear();
      this.missingByText.set(key, answer);
    }
    return [...answer];
  }

  /**
   * The fallback families that have glyphs for `characters` (what `family` lacks), in the order a
   * paragraph tries them, each named once for the characters it is the first to have. Families still
   * deferred are passed over without loading them: the paragraph could not use them either, and
   * loading every fallback family to name them would undo the deferred loading's memory saving.
   */
  fallbacksFor(family: string, characters: readonly string[]): string[] {
    const first = new Set([family, this.companions[family]]);
    let left = [...characters];
    const used: string[] = [];
    for (const candidate of this.familiesFor(family).filter((f) => !first.has(f))) {
      if (left.length === 0) break;
      if (this.deferred.has(candidate)) continue;
      const lacking = new Set(this.missingCharacters(candidate, left.join("")));
      if (lacking.size < left.length) used.push(candidate);
      left = left.filter((ch) => lacking.has(ch));
    }
    return used;
  }

  /** Distinct characters of `text` that `family` has no glyph for (all of them if the family is unknown). */
  missingCharacters(family: string, text: string): string[] {
    if (this.deferred.has(family)) this.load([family]);
    const typeface = this.coverage.get(family);
    const candidates = [...new Set(text)].filter(needsGlyph);
    if (candidates.length === 0) return [];
    if (!typeface) return candidates;
    // A family's coverage face never changes once set: its answers are kept (asked for every text drawn).
    let known = this.glyphAnswers.get(family);
    if (known === undefined || known.size > MAX_GLYPH_ANSWERS) {
      known = new Map();
      this.glyphAnswers.set(family, known);
    }
    const asked = candidates.filter((ch) => !known.has(ch));
    if (asked.length > 0) {
      const glyphs = typeface.getGlyphIDs(asked.join(""), asked.length);
      for (const [index, ch] of asked.entries()) known.set(ch, glyphs[index] !== 0);
    }
    return candidates.filter((ch) => known.get(ch) === false);
  }

  dispose(): void {
    for (const typeface of this.coverage.values()) typeface.delete();
    this.coverage.clear();
    this.collection.delete();
    this.provider.delete();
  }
}
