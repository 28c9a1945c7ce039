import { type Layer, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import {
  documentOf,
  iconLayer,
  lineLayer,
  pathLayer,
  polygonLayer,
  starLayer,
} from "../support/documents.ts";

function errorsOf(layer: Layer | Record<string, unknown>): { path: string; message: string }[] {
  const result = validateDocument(
    documentOf([layer as Layer], { slots: [{ name: "brand", type: "color" }] }),
  );
  return result.ok ? [] : result.errors;
}

const AT = "frames[0].layers[0]";

describe("line, polygon, star, path and icon layers: valid documents", () => {
  it("accepts each kind with its options and bindings", () => {
    const layers: Layer[] = [
      lineLayer({ id: "l", dash: [4, 2], cap: "round", bind: { "stroke.color": "brand" } }),
      polygonLayer({ id: "p", sides: 3, corner_radius: 4, bind: { fill: "brand" } }),
      starLayer({
        id: "s",
        points: 64,
        inner_radius: 0,
        stroke: { color: "#000000", width: 2, align: "outside" },
        bind: { "stroke.color": "brand" },
      }),
      pathLayer({ id: "d", d: "M0 0h10v10z", view_box: [0, 0, 10, 10], fill_rule: "evenodd", fit: "fill" }),
      iconLayer({ id: "i", icon: "heart", bind: { color: "brand" } }),
    ];
    const result = validateDocument(documentOf(layers, { slots: [{ name: "brand", type: "color" }] }));
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});

describe("line, polygon, star, path and icon layers: errors name the JSON path", () => {
  it("unknown icon, with the closest name", () => {
    expect(errorsOf(iconLayer({ icon: "hart" }))).toEqual([
      { path: `${AT}.icon`, message: 'unknown icon "hart" (did you mean "heart"?)' },
    ]);
  });

  it("unknown icon named with Lucide's old word order", () => {
    expect(errorsOf(iconLayer({ icon: "alert-circle" }))).toEqual([
      { path: `${AT}.icon`, message: 'unknown icon "alert-circle" (did you mean "circle-alert"?)' },
    ]);
  });

  it("unknown icon with nothing close", () => {
    expect(errorsOf(iconLayer({ icon: "zzzzqqq" }))).toEqual([
      { path: `${AT}.icon`, message: 'unknown icon "zzzzqqq"' },
    ]);
  });

  it("path data that is not SVG path data", () => {
    expect(errorsOf(pathLayer({ d: "M 10 10 L 20" }))).toEqual([
      {
        path: `${AT}.d`,
        message:
          'is not SVG path data: command "L" takes 2 numbers per segment; a number is missing at character 13',
      },
    ]);
    expect(errorsOf(pathLayer({ d: "L 10 10" }))[0]?.path).toBe(`${AT}.d`);
    expect(errorsOf(pathLayer({ d: "M 0 0 X 1" }))[0]?.message).toBe(
      'is not SVG path data: unexpected "X" at character 7',
    );
  });

  it("polygon sides and star points out of range", () => {
    expect(errorsOf(polygonLayer({ sides: 2 }))).toEqual([
      { path: `${AT}.sides`, message: expect.stringContaining(">= 3") },
    ]);
    expect(errorsOf(polygonLayer({ sides: 65 }))[0]?.path).toBe(`${AT}.sides`);
    expect(errorsOf(starLayer({ points: 2.5 }))[0]?.path).toBe(`${AT}.points`);
    expect(errorsOf(starLayer({ inner_radius: 1.5 }))[0]?.path).toBe(`${AT}.inner_radius`);
  });

  it("a bound stroke colour without a stroke", () => {
    expect(errorsOf(starLayer({ bind: { "stroke.color": "brand" } }))).toEqual([
      {
        path: `${AT}.bind["stroke.color"]`,
        message: 'is bound, but the layer has no stroke to colour (add "stroke")',
      },
    ]);
  });

  it("dashes that are all zero, and bad caps", () => {
    expect(errorsOf(lineLayer({ dash: [0, 0] }))).toEqual([
      { path: `${AT}.dash`, message: "must have a length above 0 (all zeros draw no dashes)" },
    ]);
    expect(errorsOf({ ...lineLayer({}), cap: "pointy" } as never)[0]?.path).toBe(`${AT}.cap`);
  });

  it("a line's fill is not a property, and its colour binding is stroke.color", () => {
    expect(errorsOf(lineLayer({ bind: { fill: "brand" } }))[0]).toEqual({
      path: `${AT}.bind.fill`,
      message: expect.stringContaining('bindable: "stroke.color"'),
    });
  });
});
