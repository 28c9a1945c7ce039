import type { MotionLayer } from "./presets/preset.ts";

/**
 * Scales a layer's box about its centre by `factor`, and a text's font size and letter spacing with
 * it, so the layer is drawn as itself at that size (its layout recomputed, not its pixels stretched).
 * A factor of 0 or less hides it.
 */
export function scaleAboutCentre(layer: MotionLayer, factor: number): void {
  if (factor === 1) return;
  if (factor <= 0) {
    layer.visible = false;
    return;
  }
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2;
  layer.width *= factor;
  layer.height *= factor;
  layer.x = cx - layer.width / 2;
  layer.y = cy - layer.height / 2;
  const font = layer.font;
  if (typeof font === "object" && font !== null && "size" in font && typeof font.size === "number") {
    const spacing = (font as { letter_spacing?: number }).letter_spacing;
    layer.font = {
      ...font,
      size: font.size * factor,
      ...(spacing === undefined ? {} : { letter_spacing: spacing * factor }),
    };
  }
}
