import { describe, expect, it } from "vitest";
import { layoutStack, type StackBox, type StackChild } from "../../src/render/layout/stack.ts";

const box = (fields: Partial<StackBox> = {}): StackBox => ({
  direction: "column",
  gap: 0,
  lineGap: 0,
  padding: { top: 0, right: 0, bottom: 0, left: 0 },
  align: "start",
  distribute: "start",
  wrap: false,
  width: 100,
  height: 100,
  maxWidth: Number.POSITIVE_INFINITY,
  maxHeight: Number.POSITIVE_INFINITY,
  ...fields,
});

const fixed = (width: number, height: number): StackChild => ({
  width,
  height,
  sizing: { width: "fixed", height: "fixed" },
  stretches: true,
  measure: () => ({ width, height }),
});

/** A text-like child: `chars` characters 10 px wide, 20 px lines, wrapping at the width it is given. */
const words = (chars: number, sizing: StackChild["sizing"]): StackChild => ({
  width: 0,
  height: 0,
  sizing,
  stretches: true,
  measure: (width) => {
    const natural = chars * 10;
    const w = width === null ? natural : width;
    return { width: w, height: 20 * Math.max(1, Math.ceil(natural / Math.max(10, w))) };
  },
});

describe("layoutStack (pure)", () => {
  it("stacks a column with gap and padding", () => {
    const result = layoutStack(box({ gap: 10, padding: { top: 5, right: 5, bottom: 5, left: 7 } }), [
      fixed(20, 30),
      fixed(40, 10),
    ]);
    expect(result.placed).toEqual([
      { x: 7, y: 5, width: 20, height: 30 },
      { x: 7, y: 45, width: 40, height: 10 },
    ]);
  });

  it("shares the free space among fill children, after fixed ones and gaps", () => {
    const fill: StackChild = { ...fixed(0, 10), sizing: { width: "fill", height: "fixed" } };
    const result = layoutStack(box({ direction: "row", width: 130, gap: 10 }), [fixed(20, 10), fill, fill]);
    expect(result.placed.map((p) => [p.x, p.width])).toEqual([
      [0, 20],
      [30, 45],
      [85, 45],
    ]);
  });

  it("distributes and aligns", () => {
    const between = layoutStack(box({ direction: "row", distribute: "space-between", align: "end" }), [
      fixed(10, 10),
      fixed(10, 20),
      fixed(10, 30),
    ]);
    expect(between.placed.map((p) => [p.x, p.y])).toEqual([
      [0, 90],
      [45, 80],
      [90, 70],
    ]);
    const centred = layoutStack(box({ distribute: "center", align: "center" }), [fixed(10, 20)]);
    expect(centred.placed[0]).toEqual({ x: 45, y: 40, width: 10, height: 20 });
    const stretched = layoutStack(box({ align: "stretch" }), [fixed(10, 20)]);
    expect(stretched.placed[0]).toEqual({ x: 0, y: 0, width: 100, height: 20 });
  });

  it("hugs: a column takes its content's height, wrapping text at the given width", () => {
    const result = layoutStack(
      box({ height: null, gap: 4, padding: { top: 2, right: 0, bottom: 2, left: 0 } }),
      [words(25, { width: "fill", height: "hug" }), fixed(100, 10)],
    );
    expect(result.placed[0]).toEqual({ x: 0, y: 2, width: 100, height: 60 });
    expect(result.height).toBe(2 + 60 + 4 + 10 + 2);
  });

  it("hugs up to the maximum, then lays out at the maximum (text wraps)", () => {
    const result = layoutStack(box({ direction: "row", width: null, height: null, maxWidth: 100 }), [
      words(15, { width: "hug", height: "hug" }),
    ]);
    expect(result.width).toBe(100);
    expect(result.height).toBe(40);
  });

  it("wraps a row into lines", () => {
    const result = layoutStack(box({ direction: "row", wrap: true, gap: 10, lineGap: 5 }), [
      fixed(40, 10),
      fixed(40, 20),
      fixed(40, 10),
    ]);
    expect(result.placed.map((p) => [p.x, p.y])).toEqual([
      [0, 0],
      [50, 0],
      [0, 25],
    ]);
  });
});
