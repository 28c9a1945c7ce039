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
});
