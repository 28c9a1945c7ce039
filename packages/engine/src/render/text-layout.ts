import type {
  CanvasKit,
  FontWeight,
  Paint,
  Paragraph,
  ParagraphBuilder,
  TextAlign,
  TextDirection,
  TextStyle as TextStyleSpec,
} from "canvaskit-wasm";
import type { RichRun } from "../document/rich-text.ts";
import type { TextLayerT } from "../document/schema.ts";
import { parseHexColor } from "./color.ts";
import { splitEmojiRuns } from "./emoji-runs.ts";
import type { FontLibrary } from "./fonts.ts";
import { BuilderPool, KeptParagraphs } from "./paragraph-reuse.ts";

/**
 * Text layout decisions (all deterministic, identical in Node and the browser):
 * - Direction: the paragraph is right-to-left when its first letter is from an RTL script (Unicode
 *   bidi P2/P3), so Arabic and Hebrew paragraphs wrap right to left; runs inside mix per bidi.
 * - `align` is physical: `left` stays left for RTL text. The box position is the designer's visual
 *   layout; a slot filled with Arabic must not make text jump sides. Templates for RTL use `right`.
 * - Lines are exactly size x line_height apart (forced strut), whichever fallback font a line uses.
 * - Overflow with fit `none`: cut after the last line that fits the box, ellipsis, `text_truncated`.
 * - Fit `shrink`: largest size on a 0.5 px grid, down to `min_size` (default: half the size, not
 *   below 8 px), that fits height, `max_lines` and breaks no word; then overflow as above. Fit `fill`
 *   also grows the size, up to `max_size`, while the text still fits.
 * - Paragraph spacing: extra space after each hard line break; the paragraph is laid out once and
 *   drawn in bands (text-box.ts), so line breaking and fitting stay those of one paragraph.
 */
export const ELLIPSIS = "\u2026";
/** Shrink-to-fit tries sizes on this grid (template px): fine enough to look continuous, and deterministic. */
export const SHRINK_STEP = 0.5;
/** Default `min_size` when a shrinking layer has none: half the size, but not below 8 px. */
export const DEFAULT_MIN_SIZE_FLOOR = 8;

const RTL_STRONG =
  /^[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Hanifi_Rohingya}\p{Script=Yezidi}]$/u;
const FIRST_LETTER = /\p{L}/u;

/** Paragraph base direction from the first strong (letter) character: Unicode bidi rule P2/P3. */
export function isRightToLeft(text: string): boolean {
  const letter = FIRST_LETTER.exec(text)?.[0];
  return letter !== undefined && RTL_STRONG.test(letter);
}

export interface TextSpec {
  text: string;
  families: string[];
  size: number;
  lineHeight: number;
  letterSpacing: number;
  weight: number;
  italic: boolean;
  color: Float32Array;
  align: NonNullable<TextLayerT["align"]>;
  rtl: boolean;
  /** Underline and/or line-through (CanvasKit decoration flags); 0 or absent for none. */
  decoration?: number;
  /** Paints the glyphs with other paints than their colours (a rebuild's passes); absent: as laid out. */
  glyphs?: GlyphPaint;
  /** Rich text: styled runs whose texts join to `text` (document/rich-text.ts). */
  runs?: readonly RichRun[];
  /**
   * The text is the design's own (no slot or list item put it there): its paragraphs are kept between
   * renders (a template's static labels are shaped once, not on every render).
   */
  lasting?: boolean;
}

/**
 * How a `rebuild` draws the text: the paint of the runs without their own `<color>` and of those with
 * one (null: their colour as laid out; `"none"`: not drawn), and whether emoji and decorations
 * (underline, strike-through) are drawn too.
 */
export interface GlyphPaint {
  plain: Paint | null | "none";
  colored: Paint | null | "none";
  emojiAndDecorations: boolean;
}

const TRANSPARENT = Float32Array.of(0, 0, 0, 0);

/** Paragraphs of design text an engine keeps between renders at most (the least recently used dropped). */
const LASTING_PARAGRAPHS = 128;

export class ParagraphFactory {
  private readonly ck: CanvasKit;
  private readonly fonts: FontLibrary;
  private readonly aligns: Record<TextSpec["align"], TextAlign>;
  private readonly pool = new BuilderPool();
  private readonly kept = new KeptParagraphs();
  /** Paragraphs of design text (TextSpec.lasting), kept between renders over one font collection. */
  private readonly lasting: KeptParagraphs;
  private lastingCollection: object | null = null;
  /** What each reusable paragraph was built as (its key), laid out at, and whether it lasts. */
  private readonly builds = new WeakMap<
    Paragraph,
    { key: string; width: number; lasting: boolean; collection: object }
  >();

  constructor(canvasKit: CanvasKit, fonts: FontLibrary, lastingParagraphs = LASTING_PARAGRAPHS) {
    this.ck = canvasKit;
    this.fonts = fonts;
    this.lasting = new KeptParagraphs(lastingParagraphs);
    const { TextAlign } = canvasKit;
    // Alignment is physical: `left` stays left for right-to-left text too, because the template's
    // layout is a visual design (text beside a photo must not jump sides when a slot is Arabic).
    this.aligns = {
      left: TextAlign.Left,
      center: TextAlign.Center,
      right: TextAlign.Right,
      justify: TextAlign.Justify,
    };
  }

  /**
   * A paragraph of `spec` at `size` laid out `width` wide, the caller's to delete (or to `release`).
   * The same build measured earlier in this render and released is laid out again instead of shaped
   * again.
   */
  build(spec: TextSpec, size: number, width: number, maxLines: number | undefined): Paragraph {
    const ck = this.ck;
    const style = styleKey(spec, size, maxLines);
    // Glyph paints are objects of one drawing pass: such builds are never kept.
    const key = spec.glyphs === undefined ? paragraphKey(style, spec) : null;
    const lasting = spec.lasting === true;
    if (key !== null) {
      const kept = (lasting ? this.lastingStore() : this.kept).take(key, width);
      if (kept !== undefined) {
        this.builds.set(kept, { key, width, lasting, collection: this.fonts.collection });
        return kept;
      }
    }
    const fontStyle = {
      weight: { value: spec.weight } as FontWeight,
      slant: spec.italic ? ck.FontSlant.Italic : ck.FontSlant.Upright,
    };
    const textStyle = {
      color: spec.color,
      fontFamilies: spec.families,
      fontSize: size,
      fontStyle,
      letterSpacing: spec.letterSpacing,
      heightMultiplier: spec.lineHeight,
      halfLeading: true,
      ...(spec.decoration ? { decoration: spec.decoration, decorationColor: spec.color } : {}),
    };
    this.prepareFonts(spec);
    const builder = this.pool.take(style, this.fonts.collection, () => {
      const direction: TextDirection = spec.rtl ? ck.TextDirection.RTL : ck.TextDirection.LTR;
      const paragraphStyle = new ck.ParagraphStyle({
        textStyle,
        // A forced strut makes every line exactly size x line_height tall, whatever fallback font
        // (emoji, CJK, Arabic) a line happens to contain, so lines are evenly spaced.
        strutStyle: {
          strutEnabled: true,
          forceStrutHeight: true,
          fontFamilies: spec.families,
          fontStyle,
          fontSize: size,
          heightMultiplier: spec.lineHeight,
          halfLeading: true,
        },
        textAlign: this.aligns[spec.align],
        textDirection: direction,
        replaceTabCharacters: true,
        ...(maxLines === undefined ? {} : { maxLines, ellipsis: ELLIPSIS }),
      });
      return ck.ParagraphBuilder.MakeFromFontCollection(paragraphStyle, this.fonts.collection);
    });
    const glyphs = spec.glyphs;
    const hideExtras = glyphs !== undefined && !glyphs.emojiAndDecorations;
    const runStyleOf = (style: TextStyleSpec): TextStyleSpec =>
      hideExtras ? { ...style, decoration: 0 } : style;
    // Emoji keep their own colours; a pass without them draws them transparent (Skia skips those).
    const emojiStyle = hideExtras ? { color: TRANSPARENT } : {};
    const push = (style: TextStyleSpec, paint: Paint | null | "none") => {
      if (paint === null) builder.pushStyle(new ck.TextStyle(style));
      else {
        const glyphPaint = paint === "none" ? this.transparentPaint() : paint;
        builder.pushPaintStyle(new ck.TextStyle(style), glyphPaint, this.transparentPaint());
      }
    };
    if (spec.runs === undefined && glyphs === undefined) {
      this.addText(builder, spec.text, textStyle, spec.families);
    } else if (spec.runs === undefined) {
      const style = runStyleOf(textStyle);
      push(style, glyphs?.plain ?? null);
      this.addText(builder, spec.text, { ...style, ...emojiStyle }, spec.families);
      builder.pop();
    } else {
      for (const run of spec.runs) {
        const style = runStyleOf(this.richStyle(textStyle, spec, run));
        push(style, (run.color === null ? glyphs?.plain : glyphs?.colored) ?? null);
        this.addText(builder, run.text, { ...style, ...emojiStyle }, spec.families);
        builder.pop();
      }
    }
    const paragraph = builder.build();
    paragraph.layout(width);
    if (key !== null) this.builds.set(paragraph, { key, width, lasting, collection: this.fonts.collection });
    return paragraph;
  }

  /** The paragraphs kept between renders, emptied when the font collection was replaced (faces added). */
  private lastingStore(): KeptParagraphs {
    const collection = this.fonts.collection;
    if (collection !== this.lastingCollection) {
      this.lasting.clear();
      this.lastingCollection = collection;
    }
    return this.lasting;
  }

  /**
   * Done with a paragraph of `build` for now: kept for the same build later in this render (a hugging
   * text measured, then drawn; a label drawn twice), or in later renders for design text; else deleted.
   */
  release(paragraph: Paragraph): void {
    const built = this.builds.get(paragraph);
    if (built === undefined) paragraph.delete();
    else if (!built.lasting) this.kept.keep(built.key, paragraph, built.width);
    // Built over a collection replaced since (faces were added): shaped with what is no longer there.
    else if (built.collection !== this.fonts.collection) paragraph.delete();
    else this.lastingStore().keep(built.key, paragraph, built.width);
  }

  /** Deletes the paragraphs released in this render and not built again. */
  endRender(): void {
    this.kept.clear();
  }

  /**
   * Has the font library load the deferred families this paragraph needs (before the builder takes
   * the collection): the text runs with the paragraph's families, emoji runs with the emoji family
   * first, the ellipsis a line cut short may end with.
   */
  private prepareFonts(spec: TextSpec): void {
    const emojiFamily = this.fonts.emojiFamily;
    const plain: string[] = [ELLIPSIS];
    const emoji: string[] = [];
    for (const part of spec.runs?.map((run) => run.text) ?? [spec.text]) {
      for (const run of splitEmojiRuns(part))
        (run.emoji && emojiFamily !== null ? emoji : plain).push(run.text);
    }
    this.fonts.prepareText(plain.join("\n"), spec.families);
    if (emojiFamily !== null && emoji.length > 0)
      this.fonts.prepareText(emoji.join("\n"), [emojiFamily, ...spec.families]);
  }

  /** Adds text, drawing emoji-presentation runs with the emoji font first. */
  private addText(
    builder: ParagraphBuilder,
    text: string,
    textStyle: TextStyleSpec,
    families: string[],
  ): void {
    const emojiFamily = this.fonts.emojiFamily;
    for (const run of splitEmojiRuns(text)) {
      if (run.emoji && emojiFamily !== null) {
        builder.pushStyle(new this.ck.TextStyle({ ...textStyle, fontFamilies: [emojiFamily, ...families] }));
        builder.addText(run.text);
        builder.pop();
      } else {
        builder.addText(run.text);
      }
    }
  }

  /** The layer's text style with a rich run's bold, italic, decorations and colour. */
  private richStyle(base: TextStyleSpec, spec: TextSpec, run: RichRun): TextStyleSpec {
    const ck = this.ck;
    const decoration =
      (spec.decoration ?? 0) |
      (run.underline ? ck.UnderlineDecoration : 0) |
      (run.strike ? ck.LineThroughDecoration : 0);
    const color = run.color === null ? spec.color : parseHexColor(run.color, "text");
    return {
      ...base,
      color,
      ...(run.relativeSize === undefined
        ? {}
        : { fontSize: (base.fontSize ?? spec.size) * run.relativeSize }),
      ...(run.letterSpacing === undefined ? {} : { letterSpacing: run.letterSpacing }),
      fontStyle: {
        weight: { value: runWeight(spec, run) } as FontWeight,
        slant: run.italic || spec.italic ? ck.FontSlant.Italic : ck.FontSlant.Upright,
      },
      ...(decoration ? { decoration, decorationColor: color } : {}),
    };
  }

  private transparent: Paint | null = null;

  dispose(): void {
    this.kept.clear();
    this.lasting.clear();
    this.pool.clear();
    this.transparent?.delete();
    this.transparent = null;
  }

  /** The background paint pushPaintStyle requires: nothing behind the glyphs. */
  private transparentPaint(): Paint {
    if (this.transparent === null) {
      this.transparent = new this.ck.Paint();
      this.transparent.setColor(Float32Array.of(0, 0, 0, 0));
    }
    return this.transparent;
  }
}

/** The weight a rich run is drawn at: bold is the bold face (700), or heavier when the run is already bold. */
export function runWeight(spec: Pick<TextSpec, "weight">, run: RichRun): number {
  // A named style's weight replaces the layer's; `<b>` then bolds it.
  const weight = run.weight ?? spec.weight;
  return run.bold ? (weight >= 700 ? 900 : 700) : weight;
}

/** The weights and styles a paragraph of `spec` asks its family for, each once. */
export function fontStylesOf(spec: TextSpec): { weight: number; italic: boolean }[] {
  const styles = new Map<string, { weight: number; italic: boolean }>();
  const add = (weight: number, italic: boolean) => styles.set(`${weight}${italic}`, { weight, italic });
  if (spec.runs === undefined) add(spec.weight, spec.italic);
  else
    for (const run of spec.runs)
      if (run.text.trim() !== "") add(runWeight(spec, run), run.italic || spec.italic);
  return [...styles.values()];
}

/** Everything a builder's paragraph style holds: builds with the same key can share a builder. */
function styleKey(spec: TextSpec, size: number, maxLines: number | undefined): string {
  return [
    familiesKey(spec.families),
    size,
    spec.lineHeight,
    spec.letterSpacing,
    spec.weight,
    spec.italic,
    colorKey(spec.color),
    spec.align,
    spec.rtl,
    spec.decoration ?? 0,
    maxLines ?? "",
  ].join("\u0000");
}

// A colour's exact float bits as integers: writing four floats as decimal text is slow.
const colorFloats = new Float32Array(4);
const colorBits = new Uint32Array(colorFloats.buffer);

function colorKey(color: Float32Array): string {
  colorFloats.fill(0);
  colorFloats.set(color.subarray(0, 4));
  return `${colorBits[0]},${colorBits[1]},${colorBits[2]},${colorBits[3]}`;
}

// Each family list joined once (FontLibrary.familiesFor gives the same list for a family).
const joinedFamilies = new WeakMap<readonly string[], string>();

function familiesKey(families: readonly string[]): string {
  let key = joinedFamilies.get(families);
  if (key === undefined) {
    key = families.join("\u0001");
    joinedFamilies.set(families, key);
  }
  return key;
}

/** A whole build but its width: the style, the rich runs and the text. */
function paragraphKey(style: string, spec: TextSpec): string {
  return `${style}\u0000${spec.runs === undefined ? "" : JSON.stringify(spec.runs)}\u0000${spec.text}`;
}
