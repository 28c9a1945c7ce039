import { describe, expect, it } from "vitest";
import { MAX_STACK_CHILDREN, MAX_STACK_DEPTH } from "../../src/document/schema.ts";
import { validateDocument } from "../../src/document/validate.ts";
import { validDocument } from "./helpers.ts";

const shape = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "shape",
  shape: "rectangle",
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  fill: "#000000",
  ...extra,
});

const stack = (id: string, layers: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  type: "stack",
  x: 0,
  y: 0,
  width: 100,
  height: 100,
  layers,
  ...extra,
});

function withLayers(...layers: unknown[]) {
  const doc = validDocument();
  (doc.frames[0] as { layers: unknown[] }).layers = layers;
  return doc;
}

const errorsOf = (doc: unknown) => {
  const result = validateDocument(doc);
  return result.ok ? [] : result.errors;
};

describe("stack and layout validation", () => {
  it("accepts stacks in groups and groups in stacks, with per-child sizing", () => {
    const doc = withLayers(
      stack(
        "outer",
        [
          {
            id: "g",
            type: "group",
            x: 0,
            y: 0,
            width: 50,
            height: 50,
            layers: [stack("inner", [shape("a")])],
          },
          shape("b", { layout: { width: "fill", height: "fixed" } }),
          {
            id: "t",
            type: "text",
            x: 0,
            y: 0,
            width: 50,
            height: 10,
            text: "Hi",
            font: { family: "Inter", size: 12 },
            color: "#000000",
            layout: { width: "hug", height: "hug", max_width: 200 },
          },
        ],
        {
          direction: "row",
          wrap: true,
          padding: [1, 2, 3, 4],
          align: "stretch",
          distribute: "space-between",
        },
      ),
    );
    expect(errorsOf(doc)).toEqual([]);
  });

  it("refuses hug on a kind without content size, and any resizing of an image", () => {
    const doc = withLayers(
      stack("s", [
        shape("a", { layout: { width: "hug" } }),
        { id: "img", type: "image", x: 0, y: 0, width: 10, height: 10, src: "", layout: { height: "fill" } },
      ]),
    );
    expect(errorsOf(doc)).toEqual([
      {
        path: "frames[0].layers[0].layers[0].layout.width",
        message: 'cannot be "hug": a shape layer has no content size to hug (text and stack layers do)',
      },
      {
        path: "frames[0].layers[0].layers[1].layout.height",
        message: 'must be "fixed": a image layer keeps its size (its pixels are prepared at that size)',
      },
    ]);
  });

  it("names a wrong sizing word and an unknown layout property", () => {
    const doc = withLayers(stack("s", [shape("a", { layout: { width: "grow", heigth: "hug" } })]));
    expect(errorsOf(doc)).toEqual([
      {
        path: "frames[0].layers[0].layers[0].layout.heigth",
        message: 'is not a known property (did you mean "height"?)',
      },
      {
        path: "frames[0].layers[0].layers[0].layout.width",
        message: 'must be one of "fixed", "hug", "fill"',
      },
    ]);
  });

  it(`refuses more than ${MAX_STACK_CHILDREN} children in a stack`, () => {
    const many = Array.from({ length: MAX_STACK_CHILDREN + 1 }, (_, i) => shape(`c${i}`));
    expect(errorsOf(withLayers(stack("s", many)))).toEqual([
      { path: "frames[0].layers[0].layers", message: `must have at most ${MAX_STACK_CHILDREN} items` },
    ]);
    expect(errorsOf(withLayers(stack("s", many.slice(1))))).toEqual([]);
  });

  it(`refuses stacks nested more than ${MAX_STACK_DEPTH} deep (groups between them count through)`, () => {
    const nest = (depth: number): unknown =>
      depth === 0
        ? shape("leaf")
        : depth % 2 === 0
          ? stack(`s${depth}`, [nest(depth - 1)])
          : stack(`s${depth}`, [
              { id: `g${depth}`, type: "group", x: 0, y: 0, width: 1, height: 1, layers: [nest(depth - 1)] },
            ]);
    expect(errorsOf(withLayers(nest(MAX_STACK_DEPTH)))).toEqual([]);
    const errors = errorsOf(withLayers(nest(MAX_STACK_DEPTH + 1)));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toBe(
      `stack layers are nested too deeply (at most ${MAX_STACK_DEPTH} inside each other)`,
    );
  });

  it("lets only a row wrap, and a stack's fill be bound only when it has one", () => {
    const doc = withLayers(stack("s", [shape("a")], { wrap: true, bind: { fill: "brand" } }));
    expect(errorsOf(doc)).toEqual([
      { path: "frames[0].layers[0].wrap", message: 'only a row wraps (set direction to "row")' },
      {
        path: "frames[0].layers[0].bind.fill",
        message: 'is bound, but the stack has no fill to colour (add "fill")',
      },
    ]);
  });
});
