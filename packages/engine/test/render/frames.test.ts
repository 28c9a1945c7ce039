import type { FrameT } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const post: FrameT = {
  name: "post",
  width: 200,
  height: 200,
  background: "#F1FAEE",
  layers: [
    textLayer({ id: "t", text: "", bind: { text: "headline" }, x: 10, y: 10, width: 180, height: 180 }),
  ],
};
const story: FrameT = {
  name: "story",
  width: 120,
  height: 213,
  background: "#1D3557",
  layers: [
    textLayer({
      id: "t",
      text: "",
      bind: { text: "headline" },
      x: 10,
      y: 80,
      width: 100,
      height: 120,
      color: "#FFFFFF",
      font: { family: "Inter", size: 20 },
    }),
  ],
};
const document = documentOf([], { frames: [post, story], slots: [{ name: "headline", type: "text" }] });

describe("frames", () => {
  it("renders the first frame by default and any frame by name, sharing slot values", async () => {
    const values = { headline: "One template, two frames" };
    const first = await expectGolden("frames", "post", document, { values });
    expect([first.width, first.height]).toEqual([200, 200]);
    const named = await expectGolden("frames", "story", document, { values, frame: "story" });
    expect([named.width, named.height]).toEqual([120, 213]);
  });

  it("defaults the background to white and keeps a translucent background translucent", async () => {
    const white = await expectGolden("frames", "default-background", documentOf([shapeLayer({})]));
    expect(white.opaque).toBe(true);
    const clear = await expectGolden(
      "frames",
      "translucent-background",
      documentOf([shapeLayer({})], { background: "#3366FF40" }),
    );
    expect(clear.opaque).toBe(false);
  });

  it("throws a typed error naming `frame` for an unknown frame", async () => {
    const engine = await testEngine();
    expect(() => engine.render(document, { frame: "banner" })).toThrow(
      expect.objectContaining({ name: "EngineError", code: "frame_not_found", path: "frame" }),
    );
  });
});
