import { describe, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const TEXT = "Design once, render everywhere with the same engine in the browser and on the server.";

describe("horizontal alignment", () => {
  for (const align of ["left", "center", "right", "justify"] as const) {
    it(`aligns ${align}`, async () => {
      await expectGolden(
        "text-align",
        align,
        documentOf(
          [
            shapeLayer({ id: "box", x: 40, y: 20, width: 320, height: 160, fill: "#EEF3F8" }),
            textLayer({
              text: TEXT,
              x: 40,
              y: 20,
              width: 320,
              height: 160,
              align,
              font: { family: "Inter", size: 22 },
            }),
          ],
          { height: 200 },
        ),
      );
    });
  }
});
