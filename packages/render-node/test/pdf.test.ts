import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pixelsToPoints } from "../src/pdf.ts";
import { createNodeRenderer, type NodeRenderer } from "../src/renderer.ts";
import { solid } from "./fixtures.ts";
import {
  decodeRgba,
  differingBytes,
  maxChannelDelta,
  pdfImages,
  pdfInfo,
  popplerRequired,
  rasterisePages,
} from "./support/poppler.ts";

const certificateFile = resolve(import.meta.dirname, "../../../examples/templates/certificate.json");
const certificate = JSON.parse(readFileSync(certificateFile, "utf8"));
const loadExampleImage = (src: string) => readFile(resolve(dirname(certificateFile), src));

// Two frames of different sizes and orientations; `back` is translucent where nothing is drawn.
const twoSided = {
  version: 1,
  key: "ticket",
  name: "Ticket – Sommerfest",
  slots: [
    { name: "title", type: "text", default: "Admit one" },
    { name: "photo", type: "image" },
  ],
  frames: [
    {
      name: "front",
      width: 400,
      height: 300,
      background: "#1D3557",
      layers: [
        {
          id: "photo",
          type: "image",
          x: 20,
          y: 20,
          width: 160,
          height: 120,
          src: "",
          fit: "cover",
          bind: { src: "photo" },
        },
        {
          id: "title",
          type: "text",
          x: 200,
          y: 20,
          width: 180,
          height: 80,
          text: "x",
          font: { family: "Inter", size: 28, weight: 700 },
          color: "#F1FAEE",
          bind: { text: "title" },
        },
      ],
    },
    {
      name: "back",
      width: 300,
      height: 400,
      background: "#FFFFFF00",
      layers: [
        {
          id: "box",
          type: "shape",
          shape: "rectangle",
          x: 30,
          y: 30,
          width: 240,
          height: 100,
          fill: "#E63946",
          corner_radius: 12,
        },
      ],
    },
  ],
};

(popplerRequired ? describe : describe.skip)("PDF output", () => {
  let renderer: NodeRenderer;
  let photo: Buffer;
  const loadImage = async (src: string) => {
    if (src === "photo.png") return photo;
    throw new Error(`no image ${src}`);
  };

  beforeAll(async () => {
    renderer = await createNodeRenderer({ cacheBytes: 16 * 1024 * 1024 });
    photo = await solid(64, 48, "#2A9D8F").png().toBuffer();
  });
  afterAll(() => renderer.dispose());

  it("renders the certificate as one A4 landscape page at 150 dpi whose pixels are the PNG's", async () => {
    const values = certificate.sample;
    const createdAt = new Date("2026-03-01T12:00:00Z");
    const pdf = await renderer.renderPdf(certificate, {
      values,
      dpi: 150,
      loadImage: loadExampleImage,
      createdAt,
    });
    expect([pdf.pages, pdf.width, pdf.height, pdf.contentType]).toEqual([1, 1754, 1240, "application/pdf"]);

    const info = await pdfInfo(pdf.bytes);
    expect(info.pages).toBe(1);
    expect(info.title).toBe("Certificate of completion");
    expect(info.creator).toBe("Pictor");
    expect(info.creationDate).toMatch(/Mar\s+1 12:00:00 2026/);
    // A4 is 841.89 x 595.28 pt; 1754x1240 px at 150 dpi is within a tenth of a millimetre.
    expect(info.pageSizes).toEqual([{ width: 841.92, height: 595.2 }]);

    const png = await renderer.render(certificate, { values, format: "png", loadImage: loadExampleImage });
    const [page] = await rasterisePages(pdf.bytes, 150);
    expect(page && differingBytes(page, await decodeRgba(png.bytes))).toBe(0);
  });

  it("gives one page per frame in the order asked, each the size of its frame, at scale 2", async () => {
    const values = { photo: "photo.png", title: "Sommerfest ✓" };
    const pdf = await renderer.renderPdf(twoSided, {
      frames: ["front", "back"],
      scale: 2,
      values,
      loadImage,
    });
    expect([pdf.pages, pdf.width, pdf.height]).toEqual([2, 800, 600]);
    const info = await pdfInfo(pdf.bytes);
    expect(info.title).toBe("Ticket – Sommerfest");
    // 96 px per inch: 1 px = 0.75 pt, whatever the scale.
    expect(info.pageSizes).toEqual([
      { width: 300, height: 225 },
      { width: 225, height: 300 },
    ]);
    expect((await pdfImages(pdf.bytes)).map((i) => [i.page, i.width, i.height, i.enc])).toEqual([
      [1, 800, 600, "image"],
      [2, 600, 800, "image"],
    ]);

    const [front, back] = await rasterisePages(pdf.bytes, 96 * 2);
    const frontPng = await renderer.render(twoSided, {
      frame: "front",
      scale: 2,
      values,
      format: "png",
      loadImage,
    });
    expect(front && differingBytes(front, await decodeRgba(frontPng.bytes))).toBe(0);
    // The back is translucent where nothing is drawn: on paper that is white, exactly as the JPEG shows it.
    const backOut = await renderer.render(twoSided, {
      frame: "back",
      scale: 2,
      values,
      format: "png",
      loadImage,
    });
    const backPng = await decodeRgba(backOut.bytes);
    expect(backPng.rgba[3]).toBe(0);
    expect(back && [...back.rgba.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    const inBox = ((2 * 60 * 600 + 2 * 60) * 4) as number;
    expect(back && [...back.rgba.subarray(inBox, inBox + 4)]).toEqual([
      ...backPng.rgba.subarray(inBox, inBox + 4),
    ]);

    const reversed = await renderer.renderPdf(twoSided, { frames: ["back", "front"], values, loadImage });
    expect((await pdfInfo(reversed.bytes)).pageSizes).toEqual([
      { width: 225, height: 300 },
      { width: 300, height: 225 },
    ]);
  });

  it("stores pages as JPEGs of the given quality, which show what the JPEG output shows", async () => {
    const values = { photo: "photo.png" };
    const pdf = await renderer.renderPdf(twoSided, { frames: ["front"], quality: 70, values, loadImage });
    expect((await pdfImages(pdf.bytes)).map((i) => i.enc)).toEqual(["jpeg"]);
    const jpeg = await renderer.render(twoSided, {
      frame: "front",
      quality: 70,
      values,
      format: "jpeg",
      loadImage,
    });
    const [page] = await rasterisePages(pdf.bytes, 96);
    // Same JPEG bytes inside; two JPEG decoders may round an IDCT differently by a level or so.
    expect(page && maxChannelDelta(page, await decodeRgba(jpeg.bytes))).toBeLessThanOrEqual(2);
  });

  it("reports a page size from the frame and the density", () => {
    expect([pixelsToPoints(1123), pixelsToPoints(794)]).toEqual([842.25, 595.5]);
    expect(pixelsToPoints(1754, 150)).toBeCloseTo(841.92, 10);
  });

  it("refuses a frame the document does not have, and keeps each warning once", async () => {
    await expect(renderer.renderPdf(twoSided, { frames: ["front", "inside"], loadImage })).rejects.toThrow(
      /no frame 'inside'/,
    );
    const long = "A title far too long for its box ".repeat(6);
    const pdf = await renderer.renderPdf(twoSided, {
      frames: ["front", "front"],
      values: { title: long },
      loadImage,
    });
    expect(pdf.pages).toBe(2);
    const codes = pdf.warnings.map((w) => `${w.code}:${w.slot}`);
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

(popplerRequired ? describe : describe.skip)("lossless pages at their own resolution", () => {
  let renderer: NodeRenderer;
  beforeAll(async () => {
    renderer = await createNodeRenderer({ cacheBytes: 16 * 1024 * 1024 });
  });
  afterAll(() => renderer.dispose());

  // Odd sizes, densities whose points are not round numbers, and scales: every page must come back
  // pixel for pixel (poppler's image placement rounds at device pixel edges; see pdf.ts placement).
  it.each([
    [37, 53, 1, 96],
    [37, 53, 3, 96],
    [1123, 794, 1, 96],
    [301, 199, 2, 150],
    [250, 130, 1, 300],
    [99, 401, 4, 72],
  ])("%i x %i at scale %i, %i dpi", async (width, height, scale, dpi) => {
    const doc = {
      version: 1,
      key: "edges",
      name: "Edges",
      slots: [],
      frames: [
        {
          name: "f",
          width,
          height,
          background: "#FFFFFF",
          layers: [
            // One-pixel lines on every edge show any shift or resampling.
            { id: "t", type: "shape", shape: "rectangle", x: 0, y: 0, width, height: 1, fill: "#FF0000" },
            {
              id: "b",
              type: "shape",
              shape: "rectangle",
              x: 0,
              y: height - 1,
              width,
              height: 1,
              fill: "#00AA00",
            },
            { id: "l", type: "shape", shape: "rectangle", x: 0, y: 0, width: 1, height, fill: "#0000FF" },
            {
              id: "r",
              type: "shape",
              shape: "rectangle",
              x: width - 1,
              y: 0,
              width: 1,
              height,
              fill: "#000000",
            },
            {
              id: "c",
              type: "shape",
              shape: "ellipse",
              x: 5,
              y: 5,
              width: width - 10,
              height: height - 10,
              fill: "#8844CC",
            },
          ],
        },
      ],
    };
    const loadImage = async () => new Uint8Array();
    const pdf = await renderer.renderPdf(doc, { scale, dpi, loadImage });
    const png = await renderer.render(doc, { scale, format: "png", loadImage });
    const [page] = await rasterisePages(pdf.bytes, dpi * scale);
    expect(page && differingBytes(page, await decodeRgba(png.bytes))).toBe(0);
  });
});
