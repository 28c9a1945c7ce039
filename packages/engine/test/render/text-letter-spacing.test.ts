import { describe, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("letter spacing", () => {
  it("adds template pixels between characters, negative too", async () => {
    await expectGolden(
      "text-letter-spacing",
      "spacings",
      documentOf([
        textLayer({
          id: "tight",
          text: "TRACKING -2",
          y: 10,
          height: 50,
          font: { family: "Montserrat", size: 32, letter_spacing: -2 },
        }),
        textLayer({
          id: "none",
          text: "TRACKING 0",
          y: 70,
          height: 50,
          font: { family: "Montserrat", size: 32 },
        }),
        textLayer({
          id: "wide",
          text: "TRACKING 8",
          y: 130,
          height: 50,
          font: { family: "Montserrat", size: 32, letter_spacing: 8 },
        }),
      ]),
    );
  });
});
