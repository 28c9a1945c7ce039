import type { Paragraph } from "canvaskit-wasm";
import type { FontT } from "../document/layers/text.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";
import { isRightToLeft } from "./text-layout.ts";

// Labels are one line: laid out this wide, they never wrap.
const UNWRAPPED = 100_000;

/** One line of text laid out in a font, measured before it is placed (chart and progress labels). */
export interface Label {
  width: number;
  height: number;
  /**
   * Draws the line with its anchor at (x, y): `align` says which of its ends (or its middle) is at x,
   * `vertical` which of its edges (or its middle) is at y.
   */
  draw(x: number, y: number, align: "left" | "center" | "right", vertical: "top" | "middle" | "bottom"): void;
  delete(): void;
}

/**
 * Lays out `text` on one line in `font` and a solid `color` (`colorPath` names it in errors), through
 * the same paragraph factory and font fallback as text layers, so labels are drawn identically by the
 * API and the editor.
 */
export function layoutLabel(
  ctx: Pick<PaintContext, "ck" | "canvas" | "fonts" | "paragraphs">,
  text: string,
  font: FontT,
  color: string,
  colorPath: string,
  /** Longer lines end with an ellipsis at this width (template px). */
  maxWidth: number = UNWRAPPED,
): Label {
  const spec = {
    text,
    families: ctx.fonts.familiesFor(font.family),
    size: font.size,
    lineHeight: font.line_height ?? 1.2,
    letterSpacing: font.letter_spacing ?? 0,
    weight: font.weight ?? 400,
    italic: font.style === "italic",
    color: parseHexColor(color, colorPath),
    align: "left" as const,
    rtl: isRightToLeft(text),
  };
  const paragraph: Paragraph = ctx.paragraphs.build(spec, font.size, Math.max(1, maxWidth), 1);
  const width = paragraph.getLongestLine();
  const height = paragraph.getHeight();
  // A right-to-left line is laid out against the right edge of its box.
  const lineLeft = paragraph.getLineMetrics()[0]?.left ?? 0;
  return {
    width,
    height,
    draw(x, y, align, vertical) {
      const left = align === "left" ? x : align === "center" ? x - width / 2 : x - width;
      const top = vertical === "top" ? y : vertical === "middle" ? y - height / 2 : y - height;
      ctx.canvas.drawParagraph(paragraph, left - lineLeft, top);
    },
    delete: () => paragraph.delete(),
  };
}
