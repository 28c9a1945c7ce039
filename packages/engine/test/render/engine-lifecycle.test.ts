import { createEngine } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../support/canvaskit.ts";
import { documentOf, shapeLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";

describe("engine lifecycle", () => {
  it("renders identical bytes on repeated renders and across surface size changes", async () => {
    const engine = await testEngine();
    const small = documentOf([shapeLayer({ corner_radius: 9, opacity: 0.7 })]);
    const large = documentOf([shapeLayer({ fill: "#000000" })], { width: 640, height: 480 });
    const first = Uint8Array.from(engine.render(small, { scale: 1.5 }).pixels);
    engine.render(large, { scale: 2 });
    const again = engine.render(small, { scale: 1.5 });
    expect(again.width).toBe(600);
    expect(Buffer.from(again.pixels).equals(Buffer.from(first))).toBe(true);
  });

  it("returns a view of engine memory that the next render overwrites (documented contract)", async () => {
    const engine = await testEngine();
    const red = engine.render(documentOf([], { background: "#FF0000" }), {}).pixels;
    const firstPixel = Array.from(red.subarray(0, 4));
    engine.render(documentOf([], { background: "#0000FF" }), {});
    expect(firstPixel).toEqual([255, 0, 0, 255]);
    expect(Array.from(red.subarray(0, 4))).toEqual([0, 0, 255, 255]);
  });

  it("returns premultiplied pixels for translucent frames", async () => {
    const engine = await testEngine();
    const result = engine.render(documentOf([], { background: "#FF000080" }), {});
    expect(result.premultiplied).toBe(true);
    expect(result.opaque).toBe(false);
    expect(Array.from(result.pixels.subarray(0, 4))).toEqual([128, 0, 0, 128]);
  });

  it("throws a typed error naming values.<slot> for a malformed bound colour", async () => {
    const engine = await testEngine();
    const doc = documentOf([shapeLayer({ bind: { fill: "brand" } })], {
      slots: [{ name: "brand", type: "color" }],
    });
    expect(() => engine.render(doc, { values: { brand: "red" } })).toThrow(
      expect.objectContaining({ name: "EngineError", code: "invalid_color", path: "values.brand" }),
    );
  });

  it("refuses to work after dispose", async () => {
    const engine = createEngine({ canvasKit: await loadCanvasKit(), fonts: await loadFontSet() });
    engine.render(documentOf([]), {});
    engine.dispose();
    engine.dispose();
    expect(() => engine.render(documentOf([]), {})).toThrow(/disposed/);
  });
});
