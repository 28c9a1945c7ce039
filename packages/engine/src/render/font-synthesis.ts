import type { RenderWarning } from "../api.ts";
import type { PaintContext } from "./context.ts";
import { fontStylesOf, type TextSpec } from "./text-layout.ts";

/**
 * `font_synthesized` for each weight and style a text asks of its family that the family has no face
 * for and the shaper fakes (bold outlines thickened, an upright face slanted): the nearest real face
 * is drawn either way, so a designer learns the family lacks it rather than seeing a silent fake.
 */
export function synthesisWarnings(
  ctx: Pick<PaintContext, "fonts">,
  family: string,
  spec: TextSpec,
  layerId: string,
  slot: string | null,
): RenderWarning[] {
  const warnings: RenderWarning[] = [];
  for (const { weight, italic } of fontStylesOf(spec)) {
    const match = ctx.fonts.faceFor(family, weight, italic);
    if (match === null || (!match.fakeBold && !match.fakeItalic)) continue;
    const synthesized = [...(match.fakeBold ? ["bold"] : []), ...(match.fakeItalic ? ["italic"] : [])];
    const style = italic ? "italic" : "normal";
    const faceStyle = match.face.italic ? "italic" : "normal";
    warnings.push({
      code: "font_synthesized",
      slot,
      layer: layerId,
      message: `Font "${family}" has no ${weight} ${style} face: layer "${layerId}" was drawn with its ${match.face.weight} ${faceStyle} face and synthetic ${synthesized.join(" and ")}.`,
      details: {
        family,
        weight,
        style,
        face_weight: match.face.weight,
        face_style: faceStyle,
        synthesized,
      },
    });
  }
  return warnings;
}
