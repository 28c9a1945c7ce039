import {
  type BarcodeLayerT,
  checkRenderValues,
  type TemplateDocumentT,
  validateDocument,
} from "@pictor/engine";
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from "@zxing/library";
import { describe, expect, it } from "vitest";
import { documentOf } from "../support/documents.ts";
import { throughFormat } from "../support/encoded.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-barcode";
const SLOTS = [
  { name: "sku", type: "text" as const },
  { name: "ean", type: "text" as const },
  { name: "upc", type: "text" as const },
];
const VALUES = { sku: "PICTOR-0001", ean: "400638133393", upc: "03600029145" };
/** What a scanner reads: EAN-13 and UPC-A given without their check digit get it appended. */
const DECODED = { sku: "PICTOR-0001", ean: "4006381333931", upc: "036000291452" };

function barcodeLayer(fields: Partial<BarcodeLayerT>): BarcodeLayerT {
  return {
    id: "barcode",
    type: "barcode",
    x: 20,
    y: 20,
    width: 260,
    height: 110,
    value: "PICTOR-0001",
    ...fields,
  };
}

/** A 2x2 grid of 300x150 cells: Code 128, EAN-13, UPC-A (all slot-bound), and a styled Code 128. */
function symbologiesDocument(showText = true): TemplateDocumentT {
  const text = showText ? {} : { show_text: false };
  const doc = documentOf(
    [
      barcodeLayer({ id: "code128", bind: { value: "sku" }, ...text }),
      barcodeLayer({ id: "ean13", x: 320, symbology: "ean13", bind: { value: "ean" }, ...text }),
      barcodeLayer({ id: "upca", y: 170, symbology: "upca", bind: { value: "upc" }, ...text }),
      barcodeLayer({
        id: "styled",
        x: 320,
        y: 170,
        value: "GRADIENT-42",
        quiet_zone: 4,
        color: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#1E3A8A" },
            { offset: 1, color: "#7C3AED" },
          ],
        },
        background: "#FEF3C7",
        font: { family: "JetBrains Mono", size: 16 },
        ...text,
      }),
    ],
    { width: 600, height: 300, background: "#E5E7EB", slots: SLOTS },
  );
  expect(validateDocument(doc)).toMatchObject({ ok: true });
  return doc;
}

const FORMATS = {
  code128: BarcodeFormat.CODE_128,
  ean13: BarcodeFormat.EAN_13,
  upca: BarcodeFormat.UPC_A,
} as const;

/** Decodes the barcode in one cell of the frame with ZXing (an independent decoder), or null. */
function decode(
  rgba: Uint8Array,
  width: number,
  cell: { x: number; y: number; width: number; height: number },
  format: keyof typeof FORMATS,
): string | null {
  const luminances = new Uint8ClampedArray(cell.width * cell.height);
  for (let y = 0; y < cell.height; y++) {
    for (let x = 0; x < cell.width; x++) {
      const i = ((cell.y + y) * width + cell.x + x) * 4;
      luminances[y * cell.width + x] = Math.round(
        0.299 * (rgba[i] ?? 0) + 0.587 * (rgba[i + 1] ?? 0) + 0.114 * (rgba[i + 2] ?? 0),
      );
    }
  }
  const source = new RGBLuminanceSource(luminances, cell.width, cell.height);
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([[DecodeHintType.POSSIBLE_FORMATS, [FORMATS[format]]]]);
  try {
    return reader.decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
  } catch {
    return null;
  }
}

describe("barcode layers", () => {
  it("draws Code 128, EAN-13 and UPC-A crisply, with text, a gradient and a background", async () => {
    await expectGolden(FEATURE, "symbologies", symbologiesDocument(), { values: VALUES });
    await expectGolden(FEATURE, "symbologies-scale-2", symbologiesDocument(), { values: VALUES, scale: 2 });
  });

  it("draws the bars over the whole height without the text", async () => {
    await expectGolden(FEATURE, "no-text", symbologiesDocument(false), { values: VALUES });
    await expectGolden(FEATURE, "no-text-scale-2", symbologiesDocument(false), { values: VALUES, scale: 2 });
  });

  it.each([
    ["png", 1],
    ["jpeg", 1],
    ["png", 2],
    ["jpeg", 2],
  ] as const)("decodes to the slot values after %s encoding at scale %d", async (format, scale) => {
    const engine = await testEngine();
    const result = engine.render(symbologiesDocument(), { values: VALUES, scale });
    const { pixels, width } = await throughFormat(result, format);
    const cell = (column: number, row: number) => ({
      x: column * 300 * scale,
      y: row * 150 * scale,
      width: 300 * scale,
      height: 150 * scale,
    });
    expect(decode(pixels, width, cell(0, 0), "code128")).toBe(DECODED.sku);
    expect(decode(pixels, width, cell(1, 0), "ean13")).toBe(DECODED.ean);
    expect(decode(pixels, width, cell(0, 1), "upca")).toBe(DECODED.upc);
    expect(decode(pixels, width, cell(1, 1), "code128")).toBe("GRADIENT-42");
  });

  it("accepts EAN-13 and UPC-A values with their check digit", () => {
    const values = { sku: "A\tb ~", ean: DECODED.ean, upc: DECODED.upc };
    expect(checkRenderValues(symbologiesDocument(), undefined, values)).toEqual([]);
  });

  it.each([
    ["ean", "40063813339A", 'cannot be encoded as EAN-13: 12 or 13 digits expected (found "A")'],
    ["ean", "40063813339", "cannot be encoded as EAN-13: 12 or 13 digits expected (got 11)"],
    ["ean", "4006381333932", "cannot be encoded as EAN-13: check digit 2 is wrong (expected 1)"],
    ["upc", "0360002914", "cannot be encoded as UPC-A: 11 or 12 digits expected (got 10)"],
    ["upc", "036000291453", "cannot be encoded as UPC-A: check digit 3 is wrong (expected 2)"],
    ["sku", "CAFÉ-1", 'cannot be encoded as Code 128: only ASCII characters are allowed (found "É")'],
    ["sku", "x".repeat(81), "cannot be encoded as Code 128: at most 80 characters (got 81)"],
  ])("refuses %s = %j before rendering", (slot, value, message) => {
    const errors = checkRenderValues(symbologiesDocument(), undefined, { ...VALUES, [slot]: value });
    expect(errors).toEqual([{ slot, kind: "unencodable", path: `values.${slot}`, message }]);
  });

  it("draws nothing for an empty value", async () => {
    const engine = await testEngine();
    const doc = documentOf([barcodeLayer({ bind: { value: "sku" } })], { slots: SLOTS });
    expect(checkRenderValues(doc, undefined, { sku: "" })).toEqual([]);
    const result = engine.render(doc, { values: { sku: "" } });
    expect(new Set(result.pixels)).toEqual(new Set([255]));
  });

  it("reports a design value the symbology cannot hold with the JSON path", () => {
    const doc = documentOf([
      barcodeLayer({ id: "ok", value: "" }),
      barcodeLayer({ id: "letters", symbology: "ean13", value: "ABC" }),
      barcodeLayer({ id: "bound", symbology: "ean13", value: "ABC", bind: { value: "ean" } }),
      barcodeLayer({ id: "short", symbology: "upca", value: "123" }),
    ]);
    doc.slots = SLOTS;
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors).toEqual([
      {
        path: "frames[0].layers[1].value",
        message: 'cannot be encoded as EAN-13: 12 or 13 digits expected (found "A")',
      },
      {
        path: "frames[0].layers[3].value",
        message: "cannot be encoded as UPC-A: 11 or 12 digits expected (got 3)",
      },
    ]);
  });

  it("reports the text's font family, the default Inter of a barcode without a font too", async () => {
    const { documentFontFamilies } = await import("@pictor/engine");
    expect([...documentFontFamilies(symbologiesDocument())].sort()).toEqual(["Inter", "JetBrains Mono"]);
  });
});
