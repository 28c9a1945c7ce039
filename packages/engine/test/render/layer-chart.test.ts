import {
  type ChartLayerT,
  checkRenderValues,
  MAX_CHART_POINTS,
  type SlotT,
  validateDocument,
} from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { niceStep, valueScale } from "../../src/render/chart-scale.ts";
import { documentOf } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-chart";

function chartLayer(fields: Partial<ChartLayerT>): ChartLayerT {
  return {
    id: "chart",
    type: "chart",
    kind: "bar",
    x: 20,
    y: 20,
    width: 200,
    height: 140,
    data: [],
    ...fields,
  };
}

const MONTHS = [
  { label: "Jan", value: 12 },
  { label: "Feb", value: 19 },
  { label: "Mar", value: 7 },
  { label: "Apr", value: 24 },
  { label: "May", value: 16 },
  { label: "Jun", value: 28 },
];
const FONT = { family: "Inter", size: 11 };
const OCEAN = {
  type: "linear" as const,
  angle: 180,
  stops: [
    { offset: 0, color: "#38BDF8" },
    { offset: 1, color: "#1D4ED8" },
  ],
};

/** A document of `charts`, each in a 220 x 160 cell of a grid three wide. */
function gridDocument(charts: Partial<ChartLayerT>[], slots: SlotT[] = []) {
  const layers = charts.map((fields, i) =>
    chartLayer({
      id: `chart-${i}`,
      x: 12 + (i % 3) * 232,
      y: 12 + Math.floor(i / 3) * 172,
      width: 216,
      height: 156,
      ...structuredClone(fields),
    }),
  );
  const doc = documentOf(layers, {
    width: 708,
    height: 12 + Math.ceil(charts.length / 3) * 172,
    slots,
  });
  const validated = validateDocument(doc);
  expect(validated.ok ? [] : validated.errors).toEqual([]);
  return doc;
}

/**
 * Bars: plain numbers filling the box; labelled months with the value axis, gridlines, value and
 * category labels; negative values (down from zero, labels below); all zero; a gradient across the
 * plot with rounded ends; colours in turn with a bound colour; a range set by the designer (values
 * beyond it cut); one bar; no data with an axis.
 */
function barsDocument() {
  return gridDocument(
    [
      { data: [3, 5, 2, 8, 6, 4] },
      {
        data: MONTHS,
        font: FONT,
        value_axis: true,
        gridlines: true,
        value_labels: true,
        category_labels: true,
        corner_radius: 4,
      },
      {
        data: [
          { label: "Q1", value: 8 },
          { label: "Q2", value: -5 },
          { label: "Q3", value: 3.5 },
          { label: "Q4", value: -12 },
        ],
        font: FONT,
        value_axis: true,
        value_labels: true,
        category_labels: true,
        colors: ["#16A34A", "#DC2626"],
      },
      { data: [0, 0, 0, 0], value_axis: true, gridlines: true, font: FONT, category_labels: true },
      { data: [4, 9, 6, 11, 8], colors: [OCEAN], corner_radius: 12, bar_gap: 0.15 },
      {
        data: [5, 3, 6, 2, 7, 4],
        colors: ["#F59E0B", "#10B981", "#8B5CF6"],
        bind: { "colors[1]": "brand" },
        value_labels: true,
        font: FONT,
        prefix: "$",
        suffix: "k",
      },
      { data: [10, 40, 120, 70], min: 0, max: 100, value_axis: true, gridlines: true, font: FONT },
      { data: [{ label: "Only", value: 42 }], value_labels: true, category_labels: true, font: FONT },
      { data: [], value_axis: true, gridlines: true, font: FONT },
    ],
    [{ name: "brand", type: "color", default: "#EC4899" }],
  );
}

/**
 * Lines: plain, with points and an area; months with axis, gridlines, labels; across zero with an
 * area to zero; all zero; one point; a thick gradient line without points; decimals.
 */
function linesDocument() {
  return gridDocument([
    { kind: "line", data: [3, 5, 2, 8, 6, 4] },
    {
      kind: "line",
      data: MONTHS,
      font: FONT,
      value_axis: true,
      gridlines: true,
      value_labels: true,
      category_labels: true,
      area: "#2563EB33",
    },
    {
      kind: "line",
      data: [4, -3, 6, -8, 2, 5],
      value_axis: true,
      font: FONT,
      colors: ["#DC2626"],
      area: {
        type: "linear",
        stops: [
          { offset: 0, color: "#DC262666" },
          { offset: 1, color: "#DC262600" },
        ],
      },
    },
    { kind: "line", data: [0, 0, 0], value_axis: true, gridlines: true, font: FONT },
    {
      kind: "line",
      data: [{ label: "Now", value: 7 }],
      value_labels: true,
      category_labels: true,
      font: FONT,
    },
    {
      kind: "line",
      data: [2.25, 3.5, 3.1, 4.75],
      colors: [OCEAN],
      line_width: 8,
      point_radius: 0,
      value_labels: true,
      decimals: 1,
      font: FONT,
    },
  ]);
}

/**
 * Donuts: six colours; a pie (hole 0) with value labels; negative and zero values taking no slice;
 * all zero (the track); one value (a full ring); gradient slices with a thin ring and labels.
 */
function donutsDocument() {
  return gridDocument([
    { kind: "donut", data: [30, 20, 15, 12, 10, 13] },
    {
      kind: "donut",
      data: [50, 30, 20],
      hole: 0,
      value_labels: true,
      label_color: "#FFFFFF",
      font: { family: "Inter", weight: 700, size: 13 },
      suffix: "%",
    },
    { kind: "donut", data: [40, -10, 0, 25, 35] },
    { kind: "donut", data: [0, 0, 0] },
    { kind: "donut", data: [{ label: "All", value: 12 }], colors: ["#7C3AED"] },
    {
      kind: "donut",
      data: [3, 2, 1],
      hole: 0.8,
      colors: [OCEAN, "#F59E0B", "#E5E7EB"],
      value_labels: true,
      font: FONT,
    },
  ]);
}

describe("chart layers", () => {
  it("draws bar charts: axes, gridlines, labels, negatives, all zero, paints, a set range", async () => {
    const result = await expectGolden(FEATURE, "bars", barsDocument());
    expect(result.warnings.map((w) => w.code)).toEqual(["slot_default_used"]);
    await expectGolden(FEATURE, "bars-2x", barsDocument(), { scale: 2 });
  });

  it("draws line charts: points, areas, axes, labels, negatives, all zero, one point", async () => {
    await expectGolden(FEATURE, "lines", linesDocument());
    await expectGolden(FEATURE, "lines-2x", linesDocument(), { scale: 2 });
  });

  it("draws donut and pie charts: positive values only, the track when there is nothing to divide", async () => {
    await expectGolden(FEATURE, "donuts", donutsDocument());
    await expectGolden(FEATURE, "donuts-2x", donutsDocument(), { scale: 2 });
  });
});

describe("chart value scale", () => {
  it("steps by 1, 2 or 5 times a power of ten", () => {
    expect([0.3, 1, 2.5, 7, 12, 250, 0.012].map((raw) => niceStep(raw))).toEqual([
      { step: 0.5, decimals: 1 },
      { step: 1, decimals: 0 },
      { step: 5, decimals: 0 },
      { step: 10, decimals: 0 },
      { step: 20, decimals: 0 },
      { step: 500, decimals: 0 },
      { step: 0.02, decimals: 2 },
    ]);
  });

  it("includes zero for bars, opens up equal ends, and widens to whole ticks only when asked", () => {
    expect(valueScale([3, 8], { includeZero: true, nice: false })).toMatchObject({ lo: 0, hi: 8 });
    expect(valueScale([3, 8], { includeZero: false, nice: false })).toMatchObject({ lo: 3, hi: 8 });
    expect(valueScale([0, 0], { includeZero: true, nice: false })).toMatchObject({ lo: 0, hi: 1 });
    expect(valueScale([5, 5], { includeZero: false, nice: false })).toMatchObject({ lo: 0, hi: 5 });
    expect(valueScale([-3, -3], { includeZero: false, nice: false })).toMatchObject({ lo: -3, hi: 0 });
    expect(valueScale([], { includeZero: true, nice: true })).toMatchObject({ lo: 0, hi: 1 });
    expect(valueScale([12, 28], { includeZero: true, nice: true })).toEqual({
      lo: 0,
      hi: 30,
      ticks: [0, 10, 20, 30],
      tickDecimals: 0,
    });
    expect(valueScale([-12, 8], { includeZero: true, nice: true }).ticks).toEqual([-15, -10, -5, 0, 5, 10]);
    expect(valueScale([10, 120], { includeZero: true, nice: true, min: 0, max: 100 })).toMatchObject({
      lo: 0,
      hi: 100,
      ticks: [0, 50, 100],
    });
  });
});

describe("chart design validation", () => {
  const errorsOf = (...layers: ChartLayerT[]) => {
    const result = validateDocument(documentOf(layers, { slots: [{ name: "brand", type: "color" }] }));
    return result.ok ? [] : result.errors.map((e) => [e.path, e.message]);
  };

  it(`refuses more than ${MAX_CHART_POINTS} points, naming the limit`, () => {
    const data = Array.from({ length: MAX_CHART_POINTS }, (_, i) => i);
    expect(errorsOf(chartLayer({ data }))).toEqual([]);
    const errors = errorsOf(chartLayer({ data: [...data, 1] }));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toBe("frames[0].layers[0].data");
    expect(errors[0]?.[1]).toContain(String(MAX_CHART_POINTS));
  });

  it("refuses a range upside down, axes on a donut, a bound colour the list lacks, data not numbers", () => {
    expect(
      errorsOf(
        chartLayer({ id: "a", min: 10, max: 5 }),
        chartLayer({ id: "b", kind: "donut", value_axis: true, gridlines: false }),
        chartLayer({ id: "c", colors: ["#111111"], bind: { "colors[1]": "brand" } }),
        chartLayer({ id: "d", kind: "donut", bind: { "colors[5]": "brand" } }),
      ),
    ).toEqual([
      ["frames[0].layers[0].max", "must be greater than min (10)"],
      ["frames[0].layers[1].value_axis", 'applies to kinds "bar" and "line" only'],
      ["frames[0].layers[1].gridlines", 'applies to kinds "bar" and "line" only'],
      ['frames[0].layers[2].bind["colors[1]"]', 'is bound, but the chart has 1 colour (add it to "colors")'],
    ]);
    const paths = errorsOf(
      chartLayer({ id: "a", data: ["7" as unknown as number] }),
      chartLayer({ id: "b", data: [{ label: "x" } as unknown as number] }),
      chartLayer({ id: "c", kind: "pie" as "donut" }),
    ).map(([path]) => path);
    expect(paths).toEqual([
      "frames[0].layers[0].data[0]",
      "frames[0].layers[1].data[0].value",
      "frames[0].layers[2].kind",
    ]);
  });
});

describe("charts bound to list slots", () => {
  const weekly: SlotT = {
    name: "weekly",
    type: "list",
    fields: [
      { name: "week", type: "text" },
      { name: "amount", type: "number" },
    ],
    default: [
      { week: "W1", amount: 3 },
      { week: "W2", amount: 5 },
    ],
  };
  const shares: SlotT = { name: "shares", type: "list", fields: [{ name: "value", type: "number" }] };
  const doc = () => {
    const document = gridDocument(
      [
        {
          data: [1, 2, 3],
          bind: { data: "weekly" },
          value_field: "amount",
          label_field: "week",
          category_labels: true,
          value_labels: true,
          font: FONT,
        },
        {
          kind: "line",
          data: [1, 2, 3],
          bind: { data: "weekly" },
          value_field: "amount",
          value_axis: true,
          font: FONT,
        },
        { kind: "donut", data: [1, 1], bind: { data: "shares" } },
      ],
      [weekly, shares],
    );
    return document;
  };
  const items = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ week: `W${i + 1}`, amount: ((i * 7) % 11) + 1 }));

  it("draws a list's items (3 and 12), its default, and the design's data when the slot has neither", async () => {
    await expectGolden(FEATURE, "bound-3", doc(), {
      values: { weekly: items(3), shares: [{ value: 2 }, { value: 1 }, { value: 1 }] },
    });
    await expectGolden(FEATURE, "bound-12", doc(), {
      values: { weekly: items(12), shares: items(12).map((item) => ({ value: item.amount })) },
    });
    const defaults = await expectGolden(FEATURE, "bound-default", doc());
    expect(defaults.warnings.map((w) => [w.code, w.slot])).toEqual([["slot_default_used", "weekly"]]);
  });

  it("counts an item without its value as 0 and one without its label as unlabelled", async () => {
    const weeks: Record<string, string | number>[] = [
      { week: "W1", amount: 4 },
      { week: "W2" },
      { amount: 6 },
    ];
    const values = { weekly: weeks };
    await expectGolden(FEATURE, "bound-missing", doc(), { values });
  });

  it(`refuses a list of more than ${MAX_CHART_POINTS} items before rendering, naming the slot`, () => {
    expect(checkRenderValues(doc(), undefined, { weekly: items(MAX_CHART_POINTS) })).toEqual([]);
    const errors = checkRenderValues(doc(), undefined, { weekly: items(MAX_CHART_POINTS + 1) });
    expect(errors).toEqual([
      {
        path: "values.weekly",
        slot: "weekly",
        kind: "invalid",
        message: `has 51 items, but chart "chart-0" shows at most ${MAX_CHART_POINTS} points`,
      },
      {
        path: "values.weekly",
        slot: "weekly",
        kind: "invalid",
        message: `has 51 items, but chart "chart-1" shows at most ${MAX_CHART_POINTS} points`,
      },
    ]);
  });

  it("refuses a list without a number field for the values, fields it lacks, and fields without a list", () => {
    const slots: SlotT[] = [
      weekly,
      { name: "names", type: "list", fields: [{ name: "label", type: "text" }] },
      { name: "brand", type: "color" },
    ];
    const result = validateDocument(
      documentOf(
        [
          chartLayer({ id: "a", bind: { data: "weekly" } }),
          chartLayer({ id: "b", bind: { data: "weekly" }, value_field: "week" }),
          chartLayer({ id: "c", bind: { data: "weekly" }, value_field: "amount", label_field: "day" }),
          chartLayer({ id: "d", bind: { data: "names" } }),
          chartLayer({ id: "e", value_field: "amount" }),
          chartLayer({ id: "f", bind: { data: "brand" } }),
        ],
        { slots },
      ),
    );
    expect(result.ok ? [] : result.errors.map((e) => [e.path, e.message])).toEqual([
      [
        "frames[0].layers[0].bind.data",
        'list slot "weekly" has no field "value" for the values (its fields: "week", "amount"); set "value_field"',
      ],
      [
        "frames[0].layers[1].value_field",
        'field "week" of list slot "weekly" is a text field; a chart\'s values need a number field',
      ],
      [
        "frames[0].layers[2].label_field",
        'list slot "weekly" has no field "day" (its fields: "week", "amount")',
      ],
      [
        "frames[0].layers[3].bind.data",
        'list slot "names" has no field "value" for the values (its fields: "label"); set "value_field"',
      ],
      ["frames[0].layers[4].value_field", 'applies only with "data" bound to a list slot'],
      ["frames[0].layers[5].bind.data", expect.stringContaining("needs a list slot")],
    ]);
  });
});

describe("chart numbers in a locale", () => {
  it("writes value labels and the axis through a format: de-DE euros, ar-EG compact, en percent", async () => {
    const sales = [
      { label: "Q1", value: 12_500 },
      { label: "Q2", value: 18_250.5 },
      { label: "Q3", value: 9_800 },
      { label: "Q4", value: 24_000 },
    ];
    const common = { data: sales, value_axis: true, value_labels: true, category_labels: true, font: FONT };
    const doc = gridDocument([
      { ...common, format: { locale: "de-DE", style: "currency", currency: "EUR", decimals: 0 } },
      { ...common, kind: "line", format: { locale: "ar-EG", style: "compact" } },
      {
        kind: "donut",
        data: [0.5, 0.3, 0.2],
        value_labels: true,
        label_color: "#FFFFFF",
        font: FONT,
        format: { style: "percent" },
      },
    ]);
    const result = await expectGolden(FEATURE, "formats", doc);
    expect(result.warnings).toEqual([]);
  });

  it("refuses a format beside decimals, prefix or suffix", () => {
    const result = validateDocument(documentOf([chartLayer({ prefix: "$", format: { style: "currency" } })]));
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual([
      "frames[0].layers[0].format.currency",
      "frames[0].layers[0].prefix",
    ]);
  });
});
