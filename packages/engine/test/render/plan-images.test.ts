import type { ImageRequest, PreparedImage } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, groupLayer, imageLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { prepareSynthetic } from "../support/images.ts";

const document = documentOf(
  [
    imageLayer({
      id: "a",
      src: "gradient:100x100",
      fit: "cover",
      focal: { x: 0.2, y: 0.8 },
      width: 101,
      height: 67,
    }),
    imageLayer({
      id: "same-as-a",
      src: "gradient:100x100",
      fit: "cover",
      focal: { x: 0.2, y: 0.8 },
      width: 101,
      height: 67,
    }),
    imageLayer({
      id: "bound",
      src: "checker:10x10",
      bind: { src: "photo" },
      fit: "contain",
      focal: { x: 0, y: 0 },
    }),
    imageLayer({ id: "hidden", src: "gradient:1x1", visible: false }),
    imageLayer({ id: "empty", src: "" }),
    groupLayer({
      id: "g",
      visible: false,
      layers: [imageLayer({ id: "in-hidden-group", src: "gradient:2x2" })],
    }),
    groupLayer({
      id: "g2",
      layers: [imageLayer({ id: "in-group", src: "gradient:3x3", rotation: 30, fit: "fill" })],
    }),
  ],
  { slots: [{ name: "photo", type: "image" }] },
);

describe("planImages", () => {
  it("lists each distinct image of the drawn layers with its exact device box", async () => {
    const engine = await testEngine();
    const requests = engine.planImages(document, { scale: 1.5, values: { photo: "checker:64x64" } });
    expect(requests.map(({ key: _key, ...rest }) => rest)).toEqual([
      {
        src: "gradient:100x100",
        slot: null,
        width: 152,
        height: 101,
        fit: "cover",
        focal: { x: 0.2, y: 0.8 },
      },
      // For contain the request's focal is the `align` anchor: the layer's focal point plays no part.
      {
        src: "checker:64x64",
        slot: "photo",
        width: 240,
        height: 150,
        fit: "contain",
        focal: { x: 0.5, y: 0.5 },
      },
      { src: "gradient:3x3", slot: null, width: 240, height: 150, fit: "fill", focal: { x: 0.5, y: 0.5 } },
    ]);
    expect(new Set(requests.map((r) => r.key)).size).toBe(3);
  });

  it("gives keys that render looks up: every planned image is drawn, nothing else is asked for", async () => {
    const engine = await testEngine();
    const options = { scale: 2, values: { photo: "checker:64x64" } };
    const planned = engine.planImages(document, options);
    const asked: string[] = [];
    const images = new Map<string, PreparedImage>(
      planned.map((r: ImageRequest) => [r.key, prepareSynthetic(r)]),
    );
    const spy = new Proxy(images, {
      get(target, property) {
        if (property === "get") {
          return (key: string) => {
            asked.push(key);
            return target.get(key);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    engine.render(document, { ...options, images: spy });
    expect(new Set(asked)).toEqual(new Set(planned.map((r) => r.key)));
  });

  it("keys differ when source, box, fit or (for cover) focal differ, and ignore focal otherwise", async () => {
    const engine = await testEngine();
    const keyOf = (layer: Parameters<typeof imageLayer>[0]) =>
      engine.planImages(documentOf([imageLayer(layer)]), {})[0]?.key;
    const base = keyOf({ src: "s", fit: "cover" });
    expect(keyOf({ src: "t", fit: "cover" })).not.toBe(base);
    expect(keyOf({ src: "s", fit: "cover", width: 161 })).not.toBe(base);
    expect(keyOf({ src: "s", fit: "fill" })).not.toBe(base);
    expect(keyOf({ src: "s", fit: "cover", focal: { x: 0, y: 0 } })).not.toBe(base);
    expect(keyOf({ src: "s", fit: "fill", focal: { x: 0, y: 0 } })).toBe(keyOf({ src: "s", fit: "fill" }));
  });

  it("rejects a prepared image of the wrong size with a typed error naming the layer's src", async () => {
    const engine = await testEngine();
    const doc = documentOf([imageLayer({ src: "gradient:10x10" })]);
    const [request] = engine.planImages(doc, {});
    if (!request) throw new Error("expected a request");
    const wrong = prepareSynthetic({ ...request, width: request.width - 1 });
    expect(() => engine.render(doc, { images: new Map([[request.key, wrong]]) })).toThrow(
      expect.objectContaining({ code: "image_size_mismatch", path: "frames[0].layers[0].src" }),
    );
  });
});
