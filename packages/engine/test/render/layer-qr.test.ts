import { checkRenderValues, type QrLayerT, validateDocument } from "@pictor/engine";
import jsQRModule from "jsqr";
import { describe, expect, it } from "vitest";
import { documentOf } from "../support/documents.ts";
import { throughFormat } from "../support/encoded.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-qr";
const URL_VALUE = "https://pictor.example/tickets/8F3K-22Q9?seat=14C";

function qrLayer(fields: Partial<QrLayerT>): QrLayerT {
  return { id: "qr", type: "qr", x: 20, y: 20, width: 160, height: 160, value: URL_VALUE, ...fields };
}

const ticketDocument = () => {
  const doc = documentOf(
    [
      qrLayer({ id: "plain", bind: { value: "ticket" } }),
      qrLayer({
        id: "styled",
        x: 220,
        error_correction: "H",
        quiet_zone: 2,
        color: {
          type: "linear",
          angle: 135,
          stops: [
            { offset: 0, color: "#1E3A8A" },
            { offset: 1, color: "#7C3AED" },
          ],
        },
        background: "#FEF3C7",
      }),
    ],
    { width: 400, height: 200, slots: [{ name: "ticket", type: "text" }] },
  );
  expect(validateDocument(doc).ok).toBe(true);
  return doc;
};

// jsqr is CommonJS with an `exports.default`: which of the two a default import yields depends on the loader.
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: JsQr }).default ?? jsQRModule) as unknown as JsQr;

/** Decodes the QR code in one half of the frame with jsQR (an independent decoder). */
function decode(rgba: Uint8Array, width: number, height: number, left: number, cropWidth: number) {
  const crop = new Uint8ClampedArray(cropWidth * height * 4);
  for (let y = 0; y < height; y++) {
    crop.set(rgba.subarray((y * width + left) * 4, (y * width + left + cropWidth) * 4), y * cropWidth * 4);
  }
  return jsQR(crop, cropWidth, height)?.data ?? null;
}

describe("QR code layers", () => {
  it("draws the modules crisply, with paints and quiet zones", async () => {
    const values = { ticket: "PICTOR-0001" };
    await expectGolden(FEATURE, "codes", ticketDocument(), { values });
    await expectGolden(FEATURE, "codes-scale-2", ticketDocument(), { values, scale: 2 });
  });

  it.each(["png", "jpeg"] as const)("decodes to the slot's value after %s encoding", async (format) => {
    const engine = await testEngine();
    const result = engine.render(ticketDocument(), { values: { ticket: URL_VALUE } });
    const { pixels, width, height } = await throughFormat(result, format);
    expect(decode(pixels, width, height, 0, 200)).toBe(URL_VALUE);
    expect(decode(pixels, width, height, 200, 200)).toBe(URL_VALUE);
  });

  it("refuses a value too long for the error correction level, before rendering", () => {
    const doc = ticketDocument();
    doc.frames[0]?.layers.push(qrLayer({ id: "strict", error_correction: "H", bind: { value: "ticket" } }));
    const errors = checkRenderValues(doc, undefined, { ticket: "x".repeat(3000) });
    expect(errors).toHaveLength(2);
    expect(errors[1]).toMatchObject({ slot: "ticket", kind: "unencodable", path: "values.ticket" });
    expect(errors[1]?.message).toContain("error correction level H");
    expect(checkRenderValues(doc, undefined, { ticket: "short" })).toEqual([]);
  });

  it("reports a design value too long for its level with the JSON path", () => {
    const doc = documentOf([qrLayer({ value: "y".repeat(2000), error_correction: "H" })]);
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual(["frames[0].layers[0].value"]);
  });
});
