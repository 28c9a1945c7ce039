import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ImageFetchError,
  ImageInvalidError,
  InvalidDocumentError,
  InvalidSlotValuesError,
} from "../src/errors.ts";
import { createNodeRenderer, type NodeRenderer } from "../src/renderer.ts";
import { expectClose, solid } from "./fixtures.ts";

const doc = {
  version: 1,
  key: "card",
  name: "Card",
  slots: [
    { name: "headline", type: "text", default: "Hello" },
    { name: "photo", type: "image" },
    { name: "brand", type: "color", default: "#FF0066" },
  ],
  frames: [
    {
      name: "wide",
      width: 200,
      height: 100,
      background: "#FFFFFF",
      bind: { background: "brand" },
      layers: [
        {
          id: "photo",
          type: "image",
          x: 0,
          y: 0,
          width: 100,
          height: 100,
          src: "",
          fit: "cover",
          bind: { src: "photo" },
        },
        {
          id: "headline",
          type: "text",
          x: 110,
          y: 10,
          width: 80,
          height: 40,
          text: "Hi",
          font: { family: "Inter", size: 16, weight: 700 },
          color: "#000000",
          bind: { text: "headline" },
        },
      ],
    },
    { name: "square", width: 50, height: 50, layers: [] },
  ],
};

describe("createNodeRenderer", () => {
  let renderer: NodeRenderer;
  let photo: Buffer;
  const loads: string[] = [];
  const loadImage = async (src: string) => {
    loads.push(src);
    if (src === "photo.png") return photo;
    if (src === "broken.png") return new Uint8Array(Buffer.from("<html>nope</html>"));
    throw Object.assign(new Error(`ENOENT: no such file, open '${src}'`), { code: "ENOENT" });
  };

  beforeAll(async () => {
    renderer = await createNodeRenderer({ cacheBytes: 16 * 1024 * 1024 });
    photo = await solid(300, 300, "#00FF00").png().toBuffer();
  });
  afterAll(() => renderer.dispose());

  it("renders a document with text, a colour and an image slot, at a fractional scale", async () => {
    const out = await renderer.render(doc, {
      values: { headline: "Hi there", photo: "photo.png", brand: "#0000FF" },
      scale: 1.5,
      format: "png",
      loadImage,
    });
    expect([out.width, out.height, out.contentType]).toEqual([300, 150, "image/png"]);
    const { data, info } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 150]);
    const at = (x: number, y: number) => [
      ...data.subarray((y * 300 + x) * info.channels, (y * 300 + x) * info.channels + 3),
    ];
    expectClose(at(50, 75), [0, 255, 0], 2); // the photo
    expectClose(at(290, 140), [0, 0, 255], 0); // the bound background
  });

  it("renders every format at the size of the chosen frame", async () => {
    for (const format of ["png", "jpeg", "webp"] as const) {
      const out = await renderer.render(doc, { frame: "square", scale: 3, format, loadImage });
      const meta = await sharp(out.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 150, 150]);
    }
  });

  it("prepares an image once for repeated renders (cache by content and box)", async () => {
    const options = { values: { photo: "photo.png" }, scale: 2, format: "jpeg" as const, loadImage };
    await renderer.render(doc, options);
    const before = renderer.imageCache.size.entries;
    await renderer.render(doc, options);
    expect(renderer.imageCache.size.entries).toBe(before);
  });

  it("keeps images cached by content apart per contentScope", async () => {
    const options = { values: { photo: "photo.png" }, scale: 1.5, format: "jpeg" as const, loadImage };
    await renderer.render(doc, { ...options, contentScope: "acc_a" });
    const before = renderer.imageCache.size.entries;
    await renderer.render(doc, { ...options, contentScope: "acc_a" });
    expect(renderer.imageCache.size.entries).toBe(before);
    await renderer.render(doc, { ...options, contentScope: "acc_b" });
    expect(renderer.imageCache.size.entries).toBe(before + 1);
  });

  it("skips loading a source whose identity the host vouches for", async () => {
    const options = {
      values: { photo: "photo.png" },
      scale: 1,
      format: "png" as const,
      loadImage,
      sourceIdentity: (src: string) => `asset:${src}`,
    };
    await renderer.render(doc, options);
    loads.length = 0;
    await renderer.render(doc, options);
    expect(loads).toEqual([]);
  });

  it("reports a loader failure as image_fetch_failed naming the slot", async () => {
    const error = await renderer
      .render(doc, { values: { photo: "missing.png" }, format: "png", loadImage })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageFetchError);
    expect((error as ImageFetchError).code).toBe("image_fetch_failed");
    expect((error as Error).message).toMatch(/slot "photo".*ENOENT/);
  });

  it("reports an unusable image as image_invalid", async () => {
    const error = await renderer
      .render(doc, { values: { photo: "broken.png" }, format: "png", loadImage })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageInvalidError);
  });

  it("rejects an invalid document with the JSON path of the problem", async () => {
    const bad = structuredClone(doc);
    const headline = bad.frames[0]?.layers[1] as { font: { size: number } } | undefined;
    if (!headline) throw new Error("fixture changed");
    headline.font.size = -3;
    const error = await renderer.render(bad, { format: "png", loadImage }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidDocumentError);
    expect((error as Error).message).toMatch(/frames\[0\]\.layers\[1\]\.font\.size/);
  });

  it("rejects unknown slots and malformed values", async () => {
    const unknown = await renderer
      .render(doc, { values: { headlin: "x" }, format: "png", loadImage })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(InvalidSlotValuesError);
    expect((unknown as InvalidSlotValuesError).code).toBe("unknown_slot");
    const colour = await renderer
      .render(doc, { values: { brand: "red" }, format: "png", loadImage })
      .catch((e: unknown) => e);
    expect((colour as InvalidSlotValuesError).code).toBe("invalid_request");
    expect((colour as Error).message).toMatch(/values\.brand/);
  });

  it("refuses a list longer than a chart shows and an empty bound progress range, as the API does", async () => {
    const charted = {
      version: 3,
      key: "charted",
      name: "Charted",
      slots: [
        { name: "goal", type: "number" },
        { name: "points", type: "list", fields: [{ name: "value", type: "number" }] },
      ],
      frames: [
        {
          name: "main",
          width: 200,
          height: 100,
          layers: [
            {
              id: "bar",
              type: "progress",
              x: 0,
              y: 0,
              width: 200,
              height: 10,
              value: 5,
              bind: { max: "goal" },
            },
            {
              id: "chart",
              type: "chart",
              kind: "bar",
              x: 0,
              y: 20,
              width: 200,
              height: 80,
              data: [],
              bind: { data: "points" },
            },
          ],
        },
      ],
    };
    const points = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i }));
    const ok = await renderer.render(charted, {
      values: { points: points(50), goal: 10 },
      format: "png",
      loadImage,
    });
    expect(ok.width).toBe(200);
    const long = await renderer
      .render(charted, { values: { points: points(51) }, format: "png", loadImage })
      .catch((e: unknown) => e);
    expect(long).toBeInstanceOf(InvalidSlotValuesError);
    expect((long as InvalidSlotValuesError).code).toBe("invalid_request");
    expect((long as Error).message).toBe(
      'values.points: has 51 items, but chart "chart" shows at most 50 points',
    );
    const empty = await renderer
      .render(charted, { values: { goal: 0 }, format: "png", loadImage })
      .catch((e: unknown) => e);
    expect((empty as InvalidSlotValuesError).code).toBe("invalid_request");
    expect((empty as Error).message).toMatch(/^values\.goal: must be greater than the progress layer's min/);
  });

  it("keeps renders correct when many run at once on one engine", async () => {
    const renders = [1, 2, 1.5, 3, 1].map((scale) =>
      renderer.render(doc, { frame: "square", scale, format: "png", loadImage }),
    );
    const results = await Promise.all(renders);
    expect(results.map((r) => r.width)).toEqual([50, 100, 75, 150, 50]);
    for (const r of results) expect((await sharp(r.bytes).metadata()).width).toBe(r.width);
  });
});
