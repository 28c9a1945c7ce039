import {
  CURRENT_VERSION,
  checkRenderValues,
  EngineError,
  type RatingLayerT,
  type SlotT,
  validateDocument,
} from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-rating";

function ratingLayer(fields: Partial<RatingLayerT>): RatingLayerT {
  return { id: "rating", type: "rating", x: 20, y: 20, width: 140, height: 24, value: "4.5", ...fields };
}

const SHAPES = ["star", "circle", "heart"] as const;
/** Rows of the shapes golden: the slot each row binds and the value the render gives it. */
const ROWS = [
  ["zero", "0"],
  ["two_and_a_half", "2.5"],
  ["four_and_a_half", "4.5"],
  ["five", "5"],
] as const;

/** Each shape (columns) at 0, 2.5, 4.5 and 5 given through slots, and an empty value (last row). */
function shapesDocument() {
  const layers = SHAPES.flatMap((shape, column) => [
    ...ROWS.map(([slot], row) =>
      ratingLayer({
        id: `${shape}-${slot}`,
        x: 15 + column * 150,
        y: 12 + row * 34,
        shape,
        value: "",
        bind: { value: slot },
      }),
    ),
    ratingLayer({ id: `${shape}-empty`, x: 15 + column * 150, y: 12 + 4 * 34, shape, value: "" }),
  ]);
  const doc = documentOf(layers, {
    width: 460,
    height: 184,
    slots: ROWS.map(([name]) => ({ name, type: "text" as const })),
  });
  expect(validateDocument(doc)).toEqual({ ok: true, document: { ...doc, version: CURRENT_VERSION } });
  return doc;
}
const SHAPE_VALUES = Object.fromEntries(ROWS.map(([slot, value]) => [slot, value]));

const SUNSET = {
  type: "linear" as const,
  angle: 90,
  stops: [
    { offset: 0, color: "#F59E0B" },
    { offset: 1, color: "#DC2626" },
  ],
};

/**
 * Paints and layout: a gradient across the row, a gradient empty part, a stroke with no empty paint,
 * spacing 0 and 16, ten hearts shrunk to the box's width, a comma decimal, a bound colour, rotation.
 */
function stylesDocument() {
  const doc = documentOf(
    [
      ratingLayer({ id: "gradient", x: 15, y: 12, width: 200, height: 30, value: "3.5", color: SUNSET }),
      ratingLayer({
        id: "gradient-empty",
        x: 235,
        y: 12,
        width: 200,
        height: 30,
        value: "2",
        shape: "circle",
        color: "#2563EB",
        empty_color: {
          type: "radial",
          stops: [
            { offset: 0, color: "#DBEAFE" },
            { offset: 1, color: "#93C5FD" },
          ],
        },
      }),
      ratingLayer({
        id: "outlined",
        x: 15,
        y: 56,
        width: 200,
        height: 30,
        value: "3.25",
        empty_color: null,
        stroke: { color: "#B45309", width: 2 },
      }),
      ratingLayer({ id: "tight", x: 235, y: 56, width: 200, height: 30, value: "4", spacing: 0 }),
      ratingLayer({
        id: "wide",
        x: 15,
        y: 100,
        width: 420,
        height: 30,
        value: "1.75",
        shape: "heart",
        spacing: 16,
        color: "#E11D48",
      }),
      ratingLayer({
        id: "ten-shrunk",
        x: 15,
        y: 144,
        width: 200,
        height: 40,
        value: "7,5",
        max: 10,
        shape: "heart",
        bind: { color: "brand" },
      }),
      ratingLayer({
        id: "rotated",
        x: 250,
        y: 150,
        width: 160,
        height: 28,
        value: "4.5",
        rotation: -8,
        stroke: { color: "#1F2937", width: 1.5 },
      }),
    ],
    { width: 450, height: 200, slots: [{ name: "brand", type: "color", default: "#7C3AED" }] },
  );
  expect(validateDocument(doc).ok).toBe(true);
  return doc;
}

describe("rating layers", () => {
  it("draws stars, circles and hearts filled to 0, 2.5, 4.5 and 5 from a slot, and empty", async () => {
    const result = await expectGolden(FEATURE, "shapes", shapesDocument(), { values: SHAPE_VALUES });
    expect(result.warnings).toEqual([]);
    await expectGolden(FEATURE, "shapes-2x", shapesDocument(), { values: SHAPE_VALUES, scale: 2 });
  });

  it("draws gradients, strokes, spacing, shrinking to the width and bound colours", async () => {
    await expectGolden(FEATURE, "styles", stylesDocument());
    await expectGolden(FEATURE, "styles-2x", stylesDocument(), { scale: 2 });
  });
});

describe("rating values", () => {
  const doc = () =>
    documentOf(
      [
        ratingLayer({ id: "five", bind: { value: "stars" } }),
        ratingLayer({ id: "ten", max: 10, bind: { value: "score" } }),
      ],
      {
        slots: [
          { name: "stars", type: "text" },
          { name: "score", type: "text" },
        ],
      },
    );

  it.each(["0", "4", "4.5", "3.25", "5", "5.0", "4,5", " 4.5 ", "", "  "])(
    "accepts %j for a rating of 5",
    (value) => {
      expect(checkRenderValues(doc(), undefined, { stars: value })).toEqual([]);
    },
  );

  it.each(["6", "5.01", "-1", "abc", "4.5.1", "1e0", ".5", "4.", "+4", "Infinity", "0x4", "4 stars"])(
    "refuses %j before rendering, naming the slot",
    (value) => {
      const errors = checkRenderValues(doc(), undefined, { stars: value });
      expect(errors).toEqual([
        {
          path: "values.stars",
          slot: "stars",
          kind: "unencodable",
          message: `must be a number from 0 to 5 for the rating layer, such as "4.5", or empty for no rating (got ${JSON.stringify(value)})`,
        },
      ]);
    },
  );

  it("checks each value against its own layer's max", () => {
    expect(checkRenderValues(doc(), undefined, { score: "9.5" })).toEqual([]);
    const errors = checkRenderValues(doc(), undefined, { stars: "9.5", score: "11" });
    expect(errors.map((e) => [e.slot, e.message.slice(0, 30)])).toEqual([
      ["stars", "must be a number from 0 to 5 f"],
      ["score", "must be a number from 0 to 10 "],
    ]);
  });

  it("refuses a bad value at render time too, with the value's path", async () => {
    const engine = await testEngine();
    expect(() => engine.render(doc(), { values: { stars: "lots" } })).toThrow(EngineError);
    try {
      engine.render(doc(), { values: { stars: "lots" } });
    } catch (error) {
      expect(error).toMatchObject({ code: "value_not_encodable", path: "values.stars" });
    }
  });
});

describe("rating design validation", () => {
  const errorsOf = (layers: RatingLayerT[], slots: SlotT[] = [{ name: "stars", type: "text" }]) => {
    const result = validateDocument(
      documentOf([ratingLayer({ id: "a" }), ratingLayer({ id: "b" }), ...layers], { slots }),
    );
    return result.ok ? [] : result.errors.map((e) => [e.path, e.message]);
  };

  it("reports a design value that is not a rating with its JSON path", () => {
    expect(errorsOf([ratingLayer({ id: "c", value: "7" })])).toEqual([
      [
        "frames[0].layers[2].value",
        'must be a number from 0 to 5 for the rating layer, such as "4.5", or empty for no rating (got "7")',
      ],
    ]);
    expect(errorsOf([ratingLayer({ id: "c", value: "great", bind: { value: "stars" } })])).toHaveLength(1);
    expect(errorsOf([ratingLayer({ id: "c", value: "7", max: 10 })])).toEqual([]);
  });

  it("reports a bound slot's default that is not a rating", () => {
    const slots = [{ name: "stars", type: "text" as const, default: "five" }];
    expect(errorsOf([ratingLayer({ id: "c", bind: { value: "stars" } })], slots)).toEqual([
      [
        "frames[0].layers[2].bind.value",
        'the default of slot "stars" must be a number from 0 to 5 for the rating layer, such as "4.5", or empty for no rating (got "five")',
      ],
    ]);
  });

  it("refuses a max out of 1..20, an unknown shape, spacing wider than the box and a stroke colour with no stroke", () => {
    const paths = errorsOf([
      ratingLayer({ id: "c", max: 21 }),
      ratingLayer({ id: "d", shape: "square" as "star" }),
    ]).map(([path]) => path);
    expect(paths).toEqual(["frames[0].layers[2].max", "frames[0].layers[3].shape"]);
    expect(
      errorsOf(
        [ratingLayer({ id: "c", spacing: 40 }), ratingLayer({ id: "d", bind: { "stroke.color": "brand" } })],
        [{ name: "brand", type: "color" as const }],
      ),
    ).toEqual([
      ["frames[0].layers[2].spacing", "leaves no room for the symbols in the box's width"],
      [
        'frames[0].layers[3].bind["stroke.color"]',
        'is bound, but the layer has no stroke to colour (add "stroke")',
      ],
    ]);
  });
});
