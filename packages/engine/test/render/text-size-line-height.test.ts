import { describe, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const TEXT = "Evenly spaced lines 👋 with emoji and عربي in them";

describe("font size and line height", () => {
  for (const lineHeight of [1, 1.5]) {
    it(`spaces lines evenly at line height ${lineHeight}, whatever fallback fonts a line uses`, async () => {
      await expectGolden(
        "text-size-line-height",
        `line-height-${lineHeight}`,
        documentOf(
          [
            textLayer({
              id: "small",
              text: TEXT,
              x: 10,
              width: 180,
              height: 260,
              font: { family: "Inter", size: 18, line_height: lineHeight },
            }),
            textLayer({
              id: "large",
              text: TEXT,
              x: 200,
              width: 190,
              height: 260,
              font: { family: "Inter", size: 28, line_height: lineHeight },
            }),
          ],
          { height: 300 },
        ),
      );
    });
  }
});
