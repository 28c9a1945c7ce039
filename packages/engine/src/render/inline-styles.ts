import type { Canvas, CanvasKit, Paragraph } from "canvaskit-wasm";
import type { RichRun } from "../document/rich-text.ts";
import type { Bindings } from "./bindings.ts";
import { parseHexColor } from "./color.ts";
import { withColorBinding } from "./color-bindings.ts";

/**
 * Rich runs with their named inline styles applied (document/inline-styles.ts), outermost first so
 * an inner style wins: its weight, italic, colour and background (literal, or the bound colour slot's
 * value), size (a multiple, nested styles multiply), letter spacing, underline and strike-through.
 * A `<color>` tag keeps its colour over a style's. Runs without styles are returned as they are.
 */
export function applyInlineStyles(runs: RichRun[], bindings: Bindings, layerId: string): RichRun[] {
  const styles = bindings.inlineStyles;
  if (styles === undefined || !runs.some((run) => run.styles !== undefined)) return runs;
  return runs.map((run) => {
    if (run.styles === undefined) return run;
    const styled: RichRun = { ...run };
    let color: string | null = null;
    for (const name of run.styles) {
      const style = styles[name];
      if (style === undefined) continue;
      const bind = style.bind as Readonly<Record<string, string>> | undefined;
      const path = `inline_styles.${name}`;
      if (style.weight !== undefined) styled.weight = style.weight;
      if (style.style !== undefined) styled.italic = run.italic || style.style === "italic";
      const ownColor = boundColor(bindings, bind, "color", style.color, path, layerId);
      if (ownColor !== null) color = ownColor;
      const background = boundColor(bindings, bind, "background", style.background, path, layerId);
      if (background !== null) styled.background = background;
      if (style.relative_size !== undefined)
        styled.relativeSize = (styled.relativeSize ?? 1) * style.relative_size;
      if (style.letter_spacing !== undefined) styled.letterSpacing = style.letter_spacing;
      if (style.underline !== undefined) styled.underline = run.underline || style.underline;
      if (style.strikethrough !== undefined) styled.strike = run.strike || style.strikethrough;
    }
    if (run.color === null && color !== null) styled.color = color;
    return styled;
  });
}

/**
 * A style's `color` or `background`: its literal, or the bound slot's colour with the style's
 * `bind_colors` options (by default the literal's alpha, opaque where the style has no literal).
 */
function boundColor(
  bindings: Bindings,
  bind: Readonly<Record<string, string>> | undefined,
  property: "color" | "background",
  literal: string | undefined,
  path: string,
  layerId: string,
): string | null {
  const found = bindings.resolve(bind, property, literal ?? null, `${path}.${property}`, layerId);
  return withColorBinding(found, bind, property, literal ?? null).value;
}

/**
 * The backgrounds of runs whose style has one: a rectangle behind each laid-out piece of the run,
 * its font's ascent to descent, drawn before the glyphs (and after a highlight). `lineOffsets`: how
 * far paragraph spacing moves each line down.
 */
export function drawRunBackgrounds(
  ck: CanvasKit,
  canvas: Canvas,
  paragraph: Paragraph,
  runs: readonly RichRun[] | undefined,
  lineOffsets: readonly number[],
  origin: { x: number; y: number },
): void {
  if (runs === undefined || !runs.some((run) => run.background !== undefined)) return;
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  paint.setStyle(ck.PaintStyle.Fill);
  // The line whose box holds a piece (a run may wrap onto later lines): its bottom is below the piece's middle.
  const bottoms = paragraph.getLineMetrics().map((line) => line.baseline + line.descent);
  const lineAt = (y: number) => {
    const index = bottoms.findIndex((bottom) => y <= bottom);
    return index === -1 ? bottoms.length - 1 : index;
  };
  let start = 0;
  for (const run of runs) {
    const end = start + run.text.length;
    if (run.background !== undefined) {
      paint.setColor(parseHexColor(run.background, "text"));
      for (const { rect } of paragraph.getRectsForRange(
        start,
        end,
        ck.RectHeightStyle.Tight,
        ck.RectWidthStyle.Tight,
      )) {
        const [left = 0, top = 0, right = 0, bottom = 0] = rect;
        if (right <= left) continue;
        const shift = lineOffsets[lineAt((top + bottom) / 2)] ?? 0;
        canvas.drawRect(
          ck.LTRBRect(origin.x + left, origin.y + top + shift, origin.x + right, origin.y + bottom + shift),
          paint,
        );
      }
    }
    start = end;
  }
  paint.delete();
}
