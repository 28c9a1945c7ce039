import type { SlotT } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { codes, expectGolden } from "../support/render.ts";

const slots: SlotT[] = [
  { name: "bg", type: "color" },
  { name: "brand", type: "color" },
  { name: "accent", type: "color" },
  { name: "ink", type: "color", default: "#6A0DAD" },
];

const document = documentOf(
  [
    shapeLayer({
      id: "card",
      x: 30,
      y: 30,
      width: 200,
      height: 140,
      corner_radius: 16,
      fill: "#CCCCCC",
      stroke: { color: "#333333", width: 8 },
      bind: { fill: "brand", "stroke.color": "accent" },
    }),
    textLayer({
      id: "label",
      text: "Colour",
      x: 250,
      y: 80,
      width: 140,
      height: 50,
      color: "#111111",
      bind: { color: "ink" },
    }),
  ],
  { slots, background: "#FFFFFF", frameBind: { background: "bg" } },
);

describe("binding colour properties", () => {
  it("keeps the design's colours when no slot is given, except a slot default (warned)", async () => {
    const result = await expectGolden("binding-colors", "design-values", document);
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: "slot_default_used", slot: "ink", layer: "label" }),
    ]);
  });

  it("binds background, fill, stroke colour and text colour to slot values", async () => {
    const result = await expectGolden("binding-colors", "bound-values", document, {
      values: { bg: "#1D3557", brand: "#E63946", accent: "#F1FAEE", ink: "#A8DADC" },
    });
    expect(codes(result.warnings)).toEqual([]);
  });

  it("gives a fill bound to a slot even when the design has no fill", async () => {
    const noFill = documentOf([shapeLayer({ id: "ghost", fill: null, bind: { fill: "brand" } })], { slots });
    await expectGolden("binding-colors", "fill-from-null", noFill, { values: { brand: "#2A9D8F" } });
  });
});
