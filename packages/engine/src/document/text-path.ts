import { type Static, Type as T } from "@sinclair/typebox";
import { svgPathDataError } from "./svg-path-data.ts";
import type { ValidationError } from "./validate-paths.ts";

/**
 * Text on a path (document v3): a text layer's `on_path` sets its words along a line instead of in
 * lines in its box. The line is the circle fitted to the layer's box (an ellipse when the box is not
 * square), an arc of it, or SVG path data in the layer's own coordinates (template px from the box's
 * top-left corner; its first subpath). The glyphs stand on the line, upright to the left of the
 * direction of travel:
 * - `circle`: `outside` (the default) reads clockwise with the letters standing outside the circle
 *   (the top of a badge), starting at the bottom so the centre of the line is at the top; `inside`
 *   reads counter-clockwise with the letters inside the circle, their tops toward the centre (the
 *   bottom of a badge, read left to right), the centre of the line at the bottom.
 * - `arc`: from `from` to `to`, degrees clockwise from the top (12 o'clock) of the circle; `outside`
 *   reads along it clockwise, `inside` from `to` back to `from`, counter-clockwise.
 * - `path`: `d` as an SVG path's, read in its own direction.
 * `align` puts the text at the start, centre (the default) or end of the line, and `start_offset`
 * moves it along the line from there (template px; negative moves it back).
 */
const Side = T.Union([T.Literal("outside"), T.Literal("inside")], { default: "outside" });
const Angle = T.Number({ minimum: -720, maximum: 720 });
const placement = {
  align: T.Optional(
    T.Union([T.Literal("start"), T.Literal("center"), T.Literal("end")], { default: "center" }),
  ),
  start_offset: T.Optional(T.Number({ minimum: -100_000, maximum: 100_000, default: 0 })),
};

export const TextOnPath = T.Union([
  T.Object(
    { shape: T.Literal("circle"), side: T.Optional(Side), ...placement },
    { additionalProperties: false },
  ),
  T.Object(
    { shape: T.Literal("arc"), from: Angle, to: Angle, side: T.Optional(Side), ...placement },
    { additionalProperties: false },
  ),
  T.Object(
    { shape: T.Literal("path"), d: T.String({ minLength: 1, maxLength: 100_000 }), ...placement },
    { additionalProperties: false },
  ),
]);

export type TextOnPathT = Static<typeof TextOnPath>;

/** The properties of a text layer that lay lines out in the box: on a path there are no lines. */
const BOX_ONLY = [
  ["highlight", "a highlight band"],
  ["max_lines", "a line limit"],
  ["paragraph_spacing", "paragraph spacing"],
  ["align", "box alignment (align the text along the path with on_path.align)"],
  ["vertical_align", "vertical alignment"],
] as const;

/**
 * Why a text layer's `on_path` cannot be drawn as written: path data that is not SVG's, an arc of no
 * length, and the properties that lay text out in lines (they would be silently ignored).
 */
export function textOnPathErrors(
  layer: {
    on_path?: TextOnPathT | undefined;
    fit?: string | undefined;
    layout?: { width?: string | undefined; height?: string | undefined } | undefined;
  } & Record<string, unknown>,
  path: string,
): ValidationError[] {
  const onPath = layer.on_path;
  if (onPath === undefined) return [];
  const errors: ValidationError[] = [];
  if (onPath.shape === "path") {
    const syntax = svgPathDataError(onPath.d);
    if (syntax !== null)
      errors.push({ path: `${path}.on_path.d`, message: `is not SVG path data: ${syntax}` });
  }
  if (onPath.shape === "arc" && (onPath.to === onPath.from || Math.abs(onPath.to - onPath.from) > 360)) {
    errors.push({
      path: `${path}.on_path.to`,
      message: `must differ from "from" (${onPath.from}) by more than 0 and at most 360 degrees`,
    });
  }
  for (const [property, what] of BOX_ONLY) {
    if (layer[property] !== undefined) {
      errors.push({
        path: `${path}.${property}`,
        message: `text on a path has no lines: ${what} does not apply`,
      });
    }
  }
  if (layer.fit === "fill") {
    errors.push({
      path: `${path}.fit`,
      message: `text on a path only shrinks to fit its path ("shrink"), it does not grow ("fill")`,
    });
  }
  for (const axis of ["width", "height"] as const) {
    if (layer.layout?.[axis] === "hug") {
      errors.push({
        path: `${path}.layout.${axis}`,
        message: "text on a path cannot hug: its box places the circle or path",
      });
    }
  }
  return errors;
}
