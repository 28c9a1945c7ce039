import { type Static, Type as T } from "@sinclair/typebox";
import { HexColor, layerCommon, Paint, type PaintT } from "../common.ts";
import type { SlotT } from "../schema.ts";
import { quoteList, type ValidationError } from "../validate-paths.ts";
import { ValueFormat, valueFormatErrors } from "../value-format.ts";
import type { SlotValueError } from "../values.ts";
import { defineLayer, type PropertyValues } from "./kind.ts";
import { Font, type FontT } from "./text.ts";

/**
 * Points a chart shows at most: its design data, and the items of a list bound to it (more is refused
 * before anything is charged). Fifty bars or points are already narrower than their labels on most
 * cards; longer series belong in an image.
 */
export const MAX_CHART_POINTS = 50;
/** A field name of a list slot's items (as the slot declares them in document/schema.ts). */
const FieldName = T.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" });

/** Paints a chart's `colors` lists at most. */
export const MAX_CHART_COLORS = 12;

/** One point of a chart: a number, or a number with the label its axis and legend show. */
export const ChartDatum = T.Union([
  T.Number({ minimum: -1e12, maximum: 1e12 }),
  T.Object(
    { label: T.String({ maxLength: 100 }), value: T.Number({ minimum: -1e12, maximum: 1e12 }) },
    { additionalProperties: false },
  ),
]);

/**
 * A bar, line or donut chart of `data` (the designer's points in place: numbers, or `{label, value}`),
 * drawn by the engine. Bars grow from zero (down for negative values); a line joins the points left
 * to right (each at the middle of its band, as bars are); a donut's slices go clockwise from the top,
 * one per positive value (zero and negative values take no slice; with no positive value the ring
 * shows `track` alone). `colors` paint bars and slices in turn (bar i: colors[i mod n]); a line is
 * colors[0]. Labels (value axis, category labels, value labels) are one line each in `font`.
 * Bindable: `data` (a list slot: each item a point, its `value_field` the value and its
 * `label_field` the label), `colors[i]`, `area`, `track` (colour slots).
 */
export const ChartLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("chart"),
    kind: T.Union([T.Literal("bar"), T.Literal("line"), T.Literal("donut")]),
    data: T.Array(ChartDatum, { maxItems: MAX_CHART_POINTS }),
    /** With `data` bound to a list slot: the item fields holding each point's value and label. */
    value_field: T.Optional(FieldName),
    label_field: T.Optional(FieldName),
    /** Default: one blue for bars and lines, six colours for donuts. */
    colors: T.Optional(T.Array(Paint, { minItems: 1, maxItems: MAX_CHART_COLORS })),
    /** The labels' font (default Inter 14). */
    font: T.Optional(Font),
    label_color: T.Optional(HexColor),
    /** Bar and line: the value axis's numbers at the left and the zero line. */
    value_axis: T.Optional(T.Boolean({ default: false })),
    /** Bar and line: each point's label under it (points given as numbers have none). */
    category_labels: T.Optional(T.Boolean({ default: false })),
    /** Bar and line: a horizontal line at each number of the value axis. */
    gridlines: T.Optional(T.Boolean({ default: false })),
    /** Each value written at its bar's end, above its point, or in its slice. */
    value_labels: T.Optional(T.Boolean({ default: false })),
    axis_color: T.Optional(HexColor),
    grid_color: T.Optional(HexColor),
    /** Bar and line: the value axis's range (default: from the data, with zero for bars). */
    min: T.Optional(T.Number({ minimum: -1e12, maximum: 1e12 })),
    max: T.Optional(T.Number({ minimum: -1e12, maximum: 1e12 })),
    /** Digits after the decimal point of value labels (default: as given, at most two). */
    decimals: T.Optional(T.Integer({ minimum: 0, maximum: 6 })),
    /** Text before and after each number of the labels and the axis ("$", "k"). */
    prefix: T.Optional(T.String({ maxLength: 16 })),
    suffix: T.Optional(T.String({ maxLength: 16 })),
    /**
     * Every number (value labels and the axis) written in a locale as a text layer's `format` writes
     * it, instead of `decimals`, `prefix` and `suffix`; the axis keeps the digits its steps need
     * unless the format sets decimals.
     */
    format: T.Optional(ValueFormat),
    /** Bars: the share of each band left empty between bars (default 0.3). */
    bar_gap: T.Optional(T.Number({ minimum: 0, maximum: 0.95 })),
    /** Bars: the radius of the corners at the end away from zero. */
    corner_radius: T.Optional(T.Number({ minimum: 0, maximum: 10_000 })),
    /** Line: its width (default 3) and the radius of its points (default the width plus 1; 0: none). */
    line_width: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 200 })),
    point_radius: T.Optional(T.Number({ minimum: 0, maximum: 200 })),
    /** Line: a paint filling the area between the line and zero (null: none, the default). */
    area: T.Optional(T.Union([Paint, T.Null()])),
    /** Donut: the hole's diameter as a share of the donut's (0: a pie; default 0.6). */
    hole: T.Optional(T.Number({ minimum: 0, maximum: 0.95 })),
    /** Donut: the ring drawn when there is nothing to divide (null: none). */
    track: T.Optional(T.Union([Paint, T.Null()])),
  },
  { additionalProperties: false },
);
export type ChartLayerT = Static<typeof ChartLayer>;
export type ChartDatumT = Static<typeof ChartDatum>;

export const DEFAULT_CHART_FONT: FontT = { family: "Inter", size: 14 };
export const DEFAULT_CHART_LABEL_COLOR = "#374151";
export const DEFAULT_CHART_AXIS_COLOR = "#9CA3AF";
export const DEFAULT_CHART_GRID_COLOR = "#E5E7EB";
export const DEFAULT_CHART_TRACK = "#E5E7EB";
const SERIES_BLUE = "#2563EB";
const DONUT_PALETTE = ["#2563EB", "#F59E0B", "#10B981", "#EF4444", "#8B5CF6", "#06B6D4"];

/** The paints in use: the layer's, else the kind's default. */
export function chartColors(layer: ChartLayerT): readonly PaintT[] {
  return layer.colors ?? (layer.kind === "donut" ? DONUT_PALETTE : [SERIES_BLUE]);
}

/** One point as the painter reads it. */
export interface ChartPoint {
  label: string | null;
  value: number;
}

/** Design data as points: a bare number has no label. */
export function chartPoints(data: readonly ChartDatumT[]): ChartPoint[] {
  return data.map((datum) =>
    typeof datum === "number" ? { label: null, value: datum } : { label: datum.label, value: datum.value },
  );
}

/**
 * The points of one render: the items of the list bound to `data` (an item without a number in its
 * value field counts as 0; a label field that is absent leaves the point unlabelled), else the
 * design's data.
 */
export function chartData(
  layer: ChartLayerT,
  path: string,
  values: PropertyValues,
): { points: ChartPoint[]; slot: string | null; path: string } {
  const bound = values.list(layer.bind, "data", [], `${path}.data`, layer.id);
  if (bound.slot === null || layer.bind?.data === undefined) {
    return { points: chartPoints(layer.data), slot: null, path: `${path}.data` };
  }
  if (bound.path === `${path}.data`) {
    // Neither given nor defaulted: the design's points.
    return { points: chartPoints(layer.data), slot: bound.slot, path: bound.path };
  }
  const valueField = layer.value_field ?? "value";
  const labelField = layer.label_field ?? "label";
  const points = bound.value.map((item) => {
    const value = item[valueField];
    const label = item[labelField];
    return {
      value: typeof value === "number" ? value : 0,
      label: label === undefined ? null : String(label),
    };
  });
  return { points, slot: bound.slot, path: bound.path };
}

/** `colors[0]` .. `colors[11]`: each paint of the list binds to a colour slot. */
const COLOR_BINDINGS = Object.fromEntries(
  Array.from({ length: MAX_CHART_COLORS }, (_, i) => [`colors[${i}]`, "color" as const]),
);

const BAR_AND_LINE_ONLY = ["value_axis", "category_labels", "gridlines", "min", "max"] as const;

export const chartDefinition = defineLayer<ChartLayerT>({
  type: "chart",
  schema: ChartLayer,
  bindable: { data: "list", ...COLOR_BINDINGS, area: "color", track: "color" },
  paints: ["area", "track"],
  fontFamilies: (layer) => [(layer.font ?? DEFAULT_CHART_FONT).family],
  validate(layer, path, doc) {
    const errors: ValidationError[] = [];
    errors.push(...boundListErrors(layer, path, doc.slots));
    if (layer.min !== undefined && layer.max !== undefined && !(layer.max > layer.min)) {
      errors.push({ path: `${path}.max`, message: `must be greater than min (${layer.min})` });
    }
    if (layer.kind === "donut") {
      for (const property of BAR_AND_LINE_ONLY) {
        if (layer[property] !== undefined) {
          errors.push({ path: `${path}.${property}`, message: 'applies to kinds "bar" and "line" only' });
        }
      }
    }
    if (layer.format !== undefined) {
      errors.push(...valueFormatErrors(layer.format, `${path}.format`));
      for (const property of ["decimals", "prefix", "suffix"] as const) {
        if (layer[property] !== undefined) {
          errors.push({
            path: `${path}.${property}`,
            message: 'give "format" or decimals, prefix and suffix, not both',
          });
        }
      }
    }
    const count = chartColors(layer).length;
    for (const property of Object.keys(layer.bind ?? {})) {
      const index = /^colors\[(\d+)\]$/.exec(property)?.[1];
      if (index !== undefined && Number(index) >= count) {
        errors.push({
          path: `${path}.bind["${property}"]`,
          message: `is bound, but the chart has ${count} colour${count === 1 ? "" : "s"} (add it to "colors")`,
        });
      }
    }
    return errors;
  },
  checkValues(layer, path, values): SlotValueError[] {
    const data = chartData(layer, path, values);
    if (data.slot === null || data.points.length <= MAX_CHART_POINTS) return [];
    return [
      {
        path: data.path,
        slot: data.slot,
        kind: "invalid",
        message: `has ${data.points.length} items, but chart "${layer.id}" shows at most ${MAX_CHART_POINTS} points`,
      },
    ];
  },
});

/**
 * A list bound to `data` must have the value field as a number field, and the label field (when the
 * layer names one, or has one called "label") as a text or number field.
 */
function boundListErrors(
  layer: ChartLayerT,
  path: string,
  slots: ReadonlyMap<string, SlotT>,
): ValidationError[] {
  const slot = layer.bind?.data === undefined ? undefined : slots.get(layer.bind.data);
  const errors: ValidationError[] = [];
  if (slot?.type !== "list") {
    for (const property of ["value_field", "label_field"] as const) {
      if (layer[property] !== undefined) {
        errors.push({
          path: `${path}.${property}`,
          message: 'applies only with "data" bound to a list slot',
        });
      }
    }
    return errors;
  }
  const fields = new Map(slot.fields.map((field) => [field.name, field.type]));
  const names = quoteList([...fields.keys()]);
  const valueField = layer.value_field ?? "value";
  const valueType = fields.get(valueField);
  if (valueType !== "number") {
    errors.push({
      path: layer.value_field === undefined ? `${path}.bind.data` : `${path}.value_field`,
      message:
        valueType === undefined
          ? `list slot ${JSON.stringify(slot.name)} has no field ${JSON.stringify(valueField)} for the values (its fields: ${names}); set "value_field"`
          : `field ${JSON.stringify(valueField)} of list slot ${JSON.stringify(slot.name)} is a ${valueType} field; a chart's values need a number field`,
    });
  }
  const labelType = fields.get(layer.label_field ?? "label");
  if (layer.label_field !== undefined && labelType === undefined) {
    errors.push({
      path: `${path}.label_field`,
      message: `list slot ${JSON.stringify(slot.name)} has no field ${JSON.stringify(layer.label_field)} (its fields: ${names})`,
    });
  } else if (labelType === "image" || labelType === "color") {
    errors.push({
      path: `${path}.label_field`,
      message: `field ${JSON.stringify(layer.label_field ?? "label")} of list slot ${JSON.stringify(slot.name)} is an ${labelType === "image" ? "image" : "colour"} field; labels need a text or number field`,
    });
  }
  return errors;
}
