import { trappingShadowedText } from "../../../render-node/test/fixtures/trapping-shadowed-text.ts";

/**
 * Issue 33's heavy documents, shared by the cost model's API test (render-cost.test.ts) and its
 * measurement against real renders (render-peak.test.ts): both must speak of the same documents.
 */

/** The shadowed text: an 8000x8000 text at font size 2000 shrunk to fit, stroke 200, shadow blur 500. */
export const shadowedText = { ...trappingShadowedText("shadowed-text", "headline"), name: "Shadowed text" };

/** A frame-sized photo on an 8000x8000 frame (issue 33, item 6). */
export const photoDoc = (assetId: string) => ({
  version: 2,
  key: "big-photo",
  name: "Big photo",
  slots: [],
  frames: [
    {
      name: "main",
      width: 8000,
      height: 8000,
      layers: [
        { id: "photo", type: "image", x: 0, y: 0, width: 8000, height: 8000, src: `asset://${assetId}` },
      ],
    },
  ],
});
