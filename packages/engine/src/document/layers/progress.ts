import { type Static, Type as T } from "@sinclair/typebox";
import { HexColor, layerCommon, Paint } from "../common.ts";
import { fixedNumber } from "../number-text.ts";
import type { ValidationError } from "../validate-paths.ts";
import { ValueFormat, type ValueFormatT, valueFormatErrors } from "../value-format.ts";
import type { SlotValueError } from "../values.ts";
import { defineLayer, type PropertyValues } from "./kind.ts";
import { Font } from "./text.ts";

/** What the optional label of a progress layer says and how it looks. */
export const ProgressLabel = T.Object(
  {
    /** `percent`: the value's share of min..max, rounded ("72%"); `value`: the number itself ("72"). */
    content: T.Optional(T.Union([T.Literal("percent"), T.Literal("value")], { default: "percent" })),
    font: Font,
    color: T.Optional(HexColor),
    /**
     * Where a bar's label sits in the bar: at its left, centre or right, or at the fill's `end` (inside
     * the fill when it fits there, else just after it). A ring's is always centred in the ring.
     */
    align: T.Optional(
      T.Union([T.Literal("left"), T.Literal("center"), T.Literal("right"), T.Literal("end")], {
        default: "center",
      }),
    ),
    /** Digits after the decimal point (rounded half away from zero). */
    decimals: T.Optional(T.Integer({ minimum: 0, maximum: 6, default: 0 })),
    /** Text before and after the number ("$", " raised"). */
    prefix: T.Optional(T.String({ maxLength: 32 })),
    suffix: T.Optional(T.String({ maxLength: 32 })),
    /**
     * The number written in a locale (the template's, or the format's own) as a text layer's `format`
     * writes it, instead of `decimals`, `prefix` and `suffix`. With content `percent` it writes the
     * share of the range as a fraction (0.72) and its style defaults to `percent` (72%, ٧٢٪).
     */
    format: T.Optional(ValueFormat),
  },
  { additionalProperties: false },
);

/**
 * A progress bar or ring: `value` (a number, the designer's value in place) against `min`..`max`
 * (default 0..100). A `bar` fills the box from its left edge; a `ring` is the largest circle centred
 * in the box, `thickness` wide, filled clockwise from the top. `track` (null: not drawn) is the whole
 * range, `fill` the part up to the value; `rounded` ends (default true) are half circles. A value
 * outside min..max is clamped for drawing (below min: no fill; above max: full); the label still says
 * the value as given ("120%"). Gradients run across the box (bar) or the ring's square.
 * Bindable: `value`, `min`, `max` (number slots, or number fields of a repeated list's items),
 * `track`, `fill` (colour slots).
 */
export const ProgressLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("progress"),
    shape: T.Optional(T.Union([T.Literal("bar"), T.Literal("ring")], { default: "bar" })),
    value: T.Number({ minimum: -1e12, maximum: 1e12 }),
    min: T.Optional(T.Number({ minimum: -1e12, maximum: 1e12, default: 0 })),
    max: T.Optional(T.Number({ minimum: -1e12, maximum: 1e12, default: 100 })),
    fill: T.Optional(Paint),
    track: T.Optional(T.Union([Paint, T.Null()])),
    rounded: T.Optional(T.Boolean({ default: true })),
    /** A ring's width in template px (default a tenth of its diameter). */
    thickness: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 10_000 })),
    label: T.Optional(ProgressLabel),
  },
  { additionalProperties: false },
);
export type ProgressLayerT = Static<typeof ProgressLayer>;
export type ProgressLabelT = Static<typeof ProgressLabel>;

export const DEFAULT_PROGRESS_FILL = "#2563EB";
export const DEFAULT_PROGRESS_TRACK = "#E5E7EB";
export const DEFAULT_PROGRESS_LABEL_COLOR = "#111827";

/** The share of min..max the value fills, clamped to 0..1 (none when the range is empty). */
export function progressFraction(value: number, min: number, max: number): number {
  if (!(max > min)) return 0;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

/** The value, min and max of one render: the bound numbers, else the design's. */
export function progressNumbers(
  layer: ProgressLayerT,
  path: string,
  values: PropertyValues,
): { value: number; min: BoundNumber; max: BoundNumber } {
  const read = (property: "value" | "min" | "max", design: number) =>
    values.number(layer.bind, property, design, `${path}.${property}`, layer.id);
  return {
    value: read("value", layer.value).value,
    min: read("min", layer.min ?? 0),
    max: read("max", layer.max ?? 100),
  };
}

type BoundNumber = { value: number; slot: string | null; path: string };

/**
 * The label's text for a value: "72%" of 0..100, "72" with content `value`; with a `format`, what
 * `formatNumber` (the locale's digits and signs) writes for the share (a fraction) or the value.
 */
export function progressLabelText(
  label: ProgressLabelT,
  value: number,
  min: number,
  max: number,
  formatNumber: (value: number, format: ValueFormatT) => string,
): string {
  const share = max > min ? (value - min) / (max - min) : 0;
  if (label.format !== undefined) {
    if (label.content === "value") return formatNumber(value, label.format);
    return formatNumber(share, { style: "percent", ...label.format });
  }
  const shown = label.content === "value" ? value : share * 100;
  const number = fixedNumber(shown, label.decimals ?? 0);
  const percent = label.content === "value" ? "" : "%";
  return `${label.prefix ?? ""}${number}${percent}${label.suffix ?? ""}`;
}

/** A ring's diameter and width: the largest circle centred in the box, thickness at most its radius. */
export function ringGeometry(layer: ProgressLayerT): {
  cx: number;
  cy: number;
  radius: number;
  width: number;
} {
  const diameter = Math.min(layer.width, layer.height);
  const width = Math.min(layer.thickness ?? diameter / 10, diameter / 2);
  // The stroke is centred on this radius, so the ring stays inside the box.
  return {
    cx: layer.x + layer.width / 2,
    cy: layer.y + layer.height / 2,
    radius: (diameter - width) / 2,
    width,
  };
}

export const progressDefinition = defineLayer<ProgressLayerT>({
  type: "progress",
  schema: ProgressLayer,
  bindable: { value: "number", min: "number", max: "number", fill: "color", track: "color" },
  paints: ["fill", "track"],
  fontFamilies: (layer) => (layer.label === undefined ? [] : [layer.label.font.family]),
  validate(layer, path) {
    const errors: ValidationError[] = [];
    const min = layer.min ?? 0;
    const max = layer.max ?? 100;
    if (!(max > min)) {
      errors.push({ path: `${path}.max`, message: `must be greater than min (${min})` });
    }
    const label = layer.label;
    if (label?.format !== undefined) {
      errors.push(...valueFormatErrors(label.format, `${path}.label.format`));
      for (const property of ["decimals", "prefix", "suffix"] as const) {
        if (label[property] !== undefined) {
          errors.push({
            path: `${path}.label.${property}`,
            message: 'give "format" or decimals, prefix and suffix, not both',
          });
        }
      }
    }
    if (layer.thickness !== undefined && layer.shape !== "ring") {
      errors.push({ path: `${path}.thickness`, message: 'applies to shape "ring" only (a bar is its box)' });
    }
    return errors;
  },
  checkValues(layer, path, values): SlotValueError[] {
    const { min, max } = progressNumbers(layer, path, values);
    if (max.value > min.value) return [];
    // A bound end made the range empty: named on the one the request gave, else on a bound one (the
    // max first).
    const bound = [max, min]
      .filter((end) => end.slot !== null)
      .sort((a, b) => Number(b.path.startsWith("values.")) - Number(a.path.startsWith("values.")))[0];
    if (bound?.slot == null) return [];
    const other = bound === max ? `min (${min.value})` : `max (${max.value})`;
    const relation = bound === max ? "greater" : "less";
    return [
      {
        path: bound.path,
        slot: bound.slot,
        kind: "invalid",
        message: `must be ${relation} than the progress layer's ${other}`,
      },
    ];
  },
});
