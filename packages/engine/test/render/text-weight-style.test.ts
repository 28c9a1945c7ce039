import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("text weight and style", () => {
  it("picks the registered face for weight 400/700 and normal/italic", async () => {
    const result = await expectGolden(
      "text-weight-style",
      "inter-faces",
      documentOf(
        [
          textLayer({ id: "regular", text: "Regular 400", y: 10, height: 40 }),
          textLayer({
            id: "bold",
            text: "Bold 700",
            y: 55,
            height: 40,
            font: { family: "Inter", size: 32, weight: 700 },
          }),
          textLayer({
            id: "italic",
            text: "Italic 400",
            y: 100,
            height: 40,
            font: { family: "Inter", size: 32, style: "italic" },
          }),
          textLayer({
            id: "bold-italic",
            text: "Bold italic",
            y: 145,
            height: 40,
            font: { family: "Lora", size: 32, weight: 700, style: "italic" },
          }),
        ],
        { height: 200 },
      ),
    );
    expect(result.warnings).toEqual([]);
  });
});
