import type { TextLayerT } from "../document/schema.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";
import { isRightToLeft, layoutText } from "./text-layout.ts";

/** Draws a text layer in its local box (the canvas is already in the layer's coordinate space). */
export function paintText(ctx: PaintContext, layer: TextLayerT, path: string): void {
  const text = ctx.bindings.resolve(layer.bind, "text", layer.text, `${path}.text`, layer.id);
  const color = ctx.bindings.resolve(layer.bind, "color", layer.color, `${path}.color`, layer.id);
  const content = layer.transform === "uppercase" ? text.value.toUpperCase() : text.value;
  if (content === "") return;
  const font = layer.font;
  const layout = layoutText(
    ctx.paragraphs,
    {
      text: content,
      families: ctx.fonts.familiesFor(font.family),
      size: font.size,
      lineHeight: font.line_height ?? 1.2,
      letterSpacing: font.letter_spacing ?? 0,
      weight: font.weight ?? 400,
      italic: font.style === "italic",
      color: parseHexColor(color.value, color.path),
      align: layer.align ?? "left",
      rtl: isRightToLeft(content),
    },
    { width: layer.width, height: layer.height },
    { maxLines: layer.max_lines, shrink: layer.fit === "shrink", minSize: layer.min_size },
  );
  const { paragraph } = layout;
  const free = layer.height - paragraph.getHeight();
  const offset = layer.vertical_align === "bottom" ? free : layer.vertical_align === "middle" ? free / 2 : 0;
  ctx.canvas.drawParagraph(paragraph, layer.x, layer.y + offset);

  const slot = text.slot;
  if (layout.shrunk) {
    ctx.warnings.push({
      code: "text_shrunk",
      slot,
      layer: layer.id,
      message: `Text of layer "${layer.id}" was shrunk from ${font.size}px to ${layout.size}px to fit its box.`,
    });
  }
  if (layout.truncated) {
    ctx.warnings.push({
      code: "text_truncated",
      slot,
      layer: layer.id,
      message: `Text of layer "${layer.id}" did not fit and was cut after ${paragraph.getNumberOfLines()} line(s).`,
    });
  }
  const missing = ctx.fonts.missingFromFamily(font.family, content);
  if (missing.length > 0) {
    const unresolved = paragraph.unresolvedCodepoints();
    const tofu =
      unresolved.length > 0
        ? ` No font in the set has ${quote(unresolved.map((cp) => String.fromCodePoint(cp)))}.`
        : "";
    const lacking = ctx.fonts.hasFamily(font.family)
      ? `has no glyph for ${quote(missing)}`
      : "is not in the font set";
    ctx.warnings.push({
      code: "glyph_fallback",
      slot,
      layer: layer.id,
      message: `Font "${font.family}" of layer "${layer.id}" ${lacking}; fallback fonts were used.${tofu}`,
    });
  }
  paragraph.delete();
}

function quote(characters: string[]): string {
  const shown = characters.slice(0, 10).join(" ");
  return characters.length > 10 ? `${shown} (and ${characters.length - 10} more)` : shown;
}
