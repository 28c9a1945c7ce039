import type { Canvas, CanvasKit, LineMetrics, Paragraph } from "canvaskit-wasm";
import { plainTextOf, sliceRuns } from "../document/rich-text.ts";
import { splitEmojiRuns } from "./emoji-runs.ts";
import {
  DEFAULT_MIN_SIZE_FLOOR,
  ELLIPSIS,
  type GlyphPaint,
  type ParagraphFactory,
  SHRINK_STEP,
  type TextSpec,
} from "./text-layout.ts";

// Layout sums float advances; a line that overshoots the box by less than this still fits.
const EPSILON = 0.01;

/** A text layer laid out in its box: one paragraph, drawn in bands when paragraphs are spaced apart. */
export interface TextLayout {
  paragraph: Paragraph;
  size: number;
  shrunk: boolean;
  truncated: boolean;
  /** Height of the laid-out text with paragraph spacing (what vertical alignment places). */
  height: number;
  /** Per laid-out line, how far paragraph spacing moves it down (all 0 without spacing). */
  lineOffsets: readonly number[];
  /** The same layout (size, width, lines, cut) built again with another glyph paint. */
  rebuild(glyphs: GlyphPaint): Paragraph;
  /** The glyph paints `paragraph` was built with (the spec's), if not its colours. */
  glyphs: GlyphPaint | undefined;
  /** Whether the text has more than its plain runs' glyphs: `<color>` runs, emoji or decorations. */
  drawsBesidePlainGlyphs(): boolean;
}

export interface FitOptions {
  maxLines: number | undefined;
  /** Shrink (down to `minSize`) when the text does not fit: fit `shrink` and `fill`. */
  shrink: boolean;
  minSize: number | undefined;
  /** Grow (up to this size) while the text fits: fit `fill`. */
  maxSize?: number | undefined;
  /** Template px added after each hard line break. */
  paragraphSpacing?: number | undefined;
}

// Scripts written without spaces, where a line may break between any two characters.
const BREAKS_ANYWHERE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * Whether a soft line break falls inside a word (the word was wider than the box). Paragraph's
 * min intrinsic width is not usable for this: after an emergency break it reports the fragments.
 */
function breaksInsideWord(paragraph: Paragraph, text: string): boolean {
  const lines = paragraph.getLineMetrics();
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i];
    if (!line || line.isHardBreak || line.endExcludingWhitespaces < line.endIndex) continue;
    const end = line.endIndex;
    const before = text[end - 1];
    if (end <= 0 || end >= text.length || before === undefined || BREAKS_ANYWHERE.test(before)) continue;
    if (paragraph.getWordBoundary(end - 1).end > end) return true;
  }
  return false;
}

/** For each line, how many paragraph gaps lie above it: a gap follows every hard break but the last line's. */
function paragraphIndexes(lines: readonly LineMetrics[]): number[] {
  let index = 0;
  return lines.map((line, i) => {
    const above = index;
    if (line.isHardBreak && i < lines.length - 1) index++;
    return above;
  });
}

function heightWithSpacing(paragraph: Paragraph, spacing: number): number {
  if (spacing === 0) return paragraph.getHeight();
  const gaps = paragraphIndexes(paragraph.getLineMetrics()).at(-1) ?? 0;
  return paragraph.getHeight() + gaps * spacing;
}

function fitsBox(paragraph: Paragraph, text: string, height: number, spacing: number): boolean {
  return (
    !paragraph.didExceedMaxLines() &&
    heightWithSpacing(paragraph, spacing) <= height + EPSILON &&
    !breaksInsideWord(paragraph, text)
  );
}

/** How many lines (of `lineHeight`, spaced after hard breaks) fit a box `height` tall; at least 1. */
function linesInBox(paragraph: Paragraph, lineHeight: number, height: number, spacing: number): number {
  const byHeight = Math.max(1, Math.floor((height + EPSILON) / lineHeight));
  if (spacing === 0) return byHeight;
  const gaps = paragraphIndexes(paragraph.getLineMetrics());
  let fitting = 0;
  while (
    fitting < gaps.length &&
    (fitting + 1) * lineHeight + (gaps[fitting] ?? 0) * spacing <= height + EPSILON
  )
    fitting++;
  return Math.max(1, fitting === gaps.length ? byHeight : fitting);
}

/** The largest step k in [lo, hi] at which the text fits (sizes fit less as they grow), else `none`. */
function largestFitting(lo: number, hi: number, none: number, fitsAt: (k: number) => boolean): number {
  let best = none;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (fitsAt(mid)) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/**
 * Lays a text layer out in its box (template px).
 * - `fit: shrink` binary-searches the largest size on a SHRINK_STEP grid from `min_size` up to the
 *   design size at which the text fits: within the box height, within `max_lines`, and no word broken
 *   because it is wider than the box. `fit: fill` does the same when the text does not fit, and
 *   otherwise searches upwards from the design size to `max_size`.
 * - Text that still does not fit the box height (fit `none`, or shrink stopped at `min_size`) is cut
 *   after the last line that fits and ends with an ellipsis, like `max_lines`: a render never paints
 *   text over the rest of the design. Both cuts give `text_truncated`.
 */
export function layoutText(
  factory: ParagraphFactory,
  spec: TextSpec,
  box: { width: number; height: number },
  options: FitOptions,
): TextLayout {
  const spacing = options.paragraphSpacing ?? 0;
  // Skia rounds the paragraph's height; a size fits only if the cut below keeps every line too.
  const fitsWhole = (paragraph: Paragraph, size: number) =>
    fitsBox(paragraph, spec.text, box.height, spacing) &&
    paragraph.getNumberOfLines() <= linesInBox(paragraph, size * spec.lineHeight, box.height, spacing);
  const fitsAtSize = (size: number) => {
    const candidate = factory.build(spec, size, box.width, options.maxLines);
    const fits = fitsWhole(candidate, size);
    candidate.delete();
    return fits;
  };
  let size = spec.size;
  let paragraph = factory.build(spec, size, box.width, options.maxLines);
  if (options.shrink && !fitsWhole(paragraph, size)) {
    const floor = Math.min(spec.size, options.minSize ?? Math.max(DEFAULT_MIN_SIZE_FLOOR, spec.size / 2));
    const steps = Math.floor((spec.size - floor) / SHRINK_STEP + 1e-9);
    // Largest k whose size floor + k*step fits; k = 0 is used when nothing fits.
    const hi = floor + steps * SHRINK_STEP >= spec.size - 1e-9 ? steps - 1 : steps;
    const best = largestFitting(0, hi, 0, (k) => fitsAtSize(floor + k * SHRINK_STEP));
    paragraph.delete();
    size = floor + best * SHRINK_STEP;
    paragraph = factory.build(spec, size, box.width, options.maxLines);
  } else if (options.maxSize !== undefined && options.maxSize > spec.size) {
    const steps = Math.floor((options.maxSize - spec.size) / SHRINK_STEP + 1e-9);
    const best = largestFitting(1, steps, 0, (k) => fitsAtSize(spec.size + k * SHRINK_STEP));
    if (best > 0) {
      paragraph.delete();
      size = spec.size + best * SHRINK_STEP;
      paragraph = factory.build(spec, size, box.width, options.maxLines);
    }
  }
  const lineHeight = size * spec.lineHeight;
  const fitting = linesInBox(paragraph, lineHeight, box.height, spacing);
  let cutLines: number | undefined;
  if (paragraph.getNumberOfLines() > fitting) {
    paragraph.delete();
    cutLines = Math.min(fitting, options.maxLines ?? fitting);
    paragraph = factory.build(spec, size, box.width, cutLines);
  }
  const laidOut = (
    final: Paragraph,
    finalSpec: TextSpec,
    maxLines: number | undefined,
    truncated: boolean,
  ) => {
    // Without spacing every offset is 0: no need for the line metrics (costly to read from CanvasKit).
    const gaps =
      spacing === 0
        ? new Array<number>(final.getNumberOfLines()).fill(0)
        : paragraphIndexes(final.getLineMetrics());
    return {
      paragraph: final,
      size,
      shrunk: size < spec.size,
      truncated,
      height: final.getHeight() + (gaps.at(-1) ?? 0) * spacing,
      lineOffsets: gaps.map((gap) => gap * spacing),
      glyphs: finalSpec.glyphs,
      drawsBesidePlainGlyphs: () => drawsBesidePlainGlyphs(finalSpec),
      rebuild: (glyphs: GlyphPaint) => factory.build({ ...finalSpec, glyphs }, size, box.width, maxLines),
    };
  };
  const lines = cutLines ?? options.maxLines;
  if (!paragraph.didExceedMaxLines()) return laidOut(paragraph, spec, lines, false);
  const lastLine = paragraph.getLineMetrics().at(-1);
  if (lastLine?.isHardBreak) {
    // Skia adds no ellipsis when the cut falls on a line break; end the last line with one ourselves
    // (if that makes the line too wide, Skia's own ellipsis shortens it).
    const kept = paragraph.getNumberOfLines();
    const visible = cutText(spec, lastLine.endIndex);
    paragraph.delete();
    return laidOut(factory.build(visible, size, box.width, kept), visible, kept, true);
  }
  return laidOut(paragraph, spec, lines, true);
}

function drawsBesidePlainGlyphs(spec: TextSpec): boolean {
  return (
    (spec.decoration ?? 0) !== 0 ||
    (spec.runs ?? []).some((run) => run.color !== null || run.underline || run.strike) ||
    splitEmojiRuns(spec.text).some((run) => run.emoji)
  );
}

/** The spec's text up to `end` (UTF-16), trailing space dropped, ending with an ellipsis. */
function cutText(spec: TextSpec, end: number): TextSpec {
  if (spec.runs === undefined) return { ...spec, text: `${spec.text.slice(0, end).trimEnd()}${ELLIPSIS}` };
  const runs = sliceRuns(spec.runs, end, ELLIPSIS);
  return { ...spec, runs, text: plainTextOf(runs) };
}

// Clip rectangles reach this far sideways: glyphs overhang their box (italics, outlines).
const WIDE = 1e6;

/**
 * Draws a laid-out paragraph at `origin`. With paragraph spacing, each paragraph is the same
 * paragraph drawn moved down by its gap and clipped to its own lines' boxes, so every line keeps the
 * layout, shaping and ellipsis of the whole text. (Glyphs reaching below their line box into a gap are
 * cut there, as they would run into the next line without spacing.)
 */
export function drawLaidOut(
  ck: CanvasKit,
  canvas: Canvas,
  layout: Pick<TextLayout, "lineOffsets">,
  paragraph: Paragraph,
  origin: { x: number; y: number },
): void {
  const offsets = layout.lineOffsets;
  if ((offsets.at(-1) ?? 0) === 0) {
    canvas.drawParagraph(paragraph, origin.x, origin.y);
    return;
  }
  const lines = paragraph.getLineMetrics();
  let top = -WIDE;
  for (let i = 0; i < lines.length; i++) {
    const offset = offsets[i] ?? 0;
    const next = lines[i + 1];
    if (next !== undefined && offsets[i + 1] === offset) continue;
    // This paragraph ends at line i: its band ends where the next line's box starts in this drawing.
    const bottom = next === undefined ? WIDE : next.baseline - next.ascent + offset;
    canvas.save();
    canvas.clipRect(ck.LTRBRect(-WIDE, origin.y + top, WIDE, origin.y + bottom), ck.ClipOp.Intersect, false);
    canvas.drawParagraph(paragraph, origin.x, origin.y + offset);
    canvas.restore();
    top = next === undefined ? WIDE : next.baseline - next.ascent + (offsets[i + 1] ?? offset);
  }
}
