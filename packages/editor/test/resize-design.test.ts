import type { TemplateDocumentT } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { resizedFrameCopy } from "../src/model/resize-design.ts";
import { sq } from "./support.ts";

describe("resize a design", () => {
  it("scales layers uniformly and places them proportionally, keeping bindings", () => {
    const frame = {
      name: "main",
      width: 1000,
      height: 500,
      background: "#FFFFFF",
      layers: [
        {
          ...sq("a", 450, 200),
          bind: { fill: "accent" },
          stroke: { color: "#000000", width: 4 },
          corner_radius: 10,
        },
        {
          id: "t",
          type: "text",
          x: 0,
          y: 0,
          width: 200,
          height: 100,
          text: "Hi",
          font: { family: "Inter", size: 40 },
          color: "#000000",
        },
      ],
    } as unknown as TemplateDocumentT["frames"][number];
    const out = resizedFrameCopy(frame, "square", 500, 500);
    const [a, t] = out.layers as unknown as Record<string, unknown>[];
    expect(out).toMatchObject({ name: "square", width: 500, height: 500 });
    expect(a).toMatchObject({
      x: 225,
      y: 225,
      width: 50,
      height: 50,
      corner_radius: 5,
      stroke: { width: 2 },
      bind: { fill: "accent" },
    });
    expect(t).toMatchObject({ x: 0, y: 25, width: 100, height: 50, font: { size: 20 } });
  });

  it("lands the copy on whole pixels and whole font sizes; finer lengths keep one decimal", () => {
    const frame = {
      name: "main",
      width: 1000,
      height: 700,
      background: "#FFFFFF",
      layers: [
        {
          ...sq("a", 123, 457, 97),
          stroke: { color: "#000000", width: 1.5 },
          corner_radius: 7,
          shadows: [{ x: 3, y: 3, blur: 5, color: "#00000080" }],
        },
        {
          id: "t",
          type: "text",
          x: 123,
          y: 457,
          width: 511,
          height: 97,
          text: "Sale",
          font: { family: "Inter", size: 43, letter_spacing: 1.3 },
          color: "#000000",
        },
        {
          id: "g",
          type: "group",
          x: 333,
          y: 111,
          width: 301,
          height: 203,
          layers: [sq("inner", 17, 33, 91)],
        },
      ],
    } as unknown as TemplateDocumentT["frames"][number];
    // A story: scaled by 1.08, placed by 1.08 across and 2.743 down.
    const out = resizedFrameCopy(frame, "story", 1080, 1920);
    const all = (out.layers as unknown as Record<string, unknown>[]).flatMap((l) => [
      l,
      ...((l.layers as Record<string, unknown>[] | undefined) ?? []),
    ]);
    for (const l of all)
      for (const k of ["x", "y", "width", "height"])
        expect(Number.isInteger(l[k]), `${l.id}.${k}`).toBe(true);
    const [a, t] = all as Record<string, unknown>[];
    expect(a).toMatchObject({
      width: 105,
      corner_radius: 8,
      stroke: { width: 1.6 },
      shadows: [{ x: 3.2, y: 3.2, blur: 5.4 }],
    });
    expect(t).toMatchObject({ width: 552, font: { size: 46, letter_spacing: 1.4 } });
  });
});
