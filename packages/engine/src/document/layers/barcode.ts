/// <reference path="../../types/jsbarcode-encoders.d.ts" />
import { type Static, Type as T } from "@sinclair/typebox";
import { CODE128 } from "jsbarcode/bin/barcodes/CODE128/index.js";
import { EAN13, UPC } from "jsbarcode/bin/barcodes/EAN_UPC/index.js";
import { layerCommon, Paint } from "../common.ts";
import { encodableValueChecks } from "./coded-value.ts";
import { defineLayer } from "./kind.ts";

/** Longest Code 128 value: about 900 modules, beyond what a scanner reads reliably. */
export const BARCODE_MAX_LENGTH = 80;

/**
 * Light modules on each side of the bars when `quiet_zone` is not set: 10 for Code 128 (its standard's
 * minimum), 11 for EAN-13 (the standard's left margin; the right one needs 7) and 9 for UPC-A.
 */
export const DEFAULT_QUIET_ZONE = { code128: 10, ean13: 11, upca: 9 } as const;

/** The human-readable text's font (regular weight); without `font`, Inter at a sixth of the box height. */
export const BarcodeFont = T.Object(
  {
    family: T.String({ minLength: 1, maxLength: 128 }),
    /** Pixels at scale 1; default a sixth of the box height. Shrunk when the text is wider than the box. */
    size: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 2000 })),
  },
  { additionalProperties: false },
);

/**
 * A linear barcode of `value` (bindable to a text slot): the modules come from jsbarcode's encoders,
 * the engine draws them. The bars fill the box width less the quiet zones (a whole number of device
 * pixels per module when the box is wide enough) and its height less the human-readable text. An
 * empty value draws nothing.
 */
export const BarcodeLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("barcode"),
    value: T.String({ maxLength: BARCODE_MAX_LENGTH }),
    /** `code128`: ASCII text; `ean13`: 12 digits (+ check digit) or 13; `upca`: 11 digits or 12. */
    symbology: T.Optional(
      T.Union([T.Literal("code128"), T.Literal("ean13"), T.Literal("upca")], { default: "code128" }),
    ),
    /** The bars and the text. */
    color: T.Optional(Paint),
    /** The whole box behind the bars and the text; null leaves it transparent. */
    background: T.Optional(T.Union([Paint, T.Null()])),
    /** Modules on each side; default 10 (Code 128), 11 (EAN-13), 9 (UPC-A). */
    quiet_zone: T.Optional(T.Integer({ minimum: 0, maximum: 50 })),
    /** The value in digits/characters under the bars. */
    show_text: T.Optional(T.Boolean({ default: true })),
    font: T.Optional(BarcodeFont),
  },
  { additionalProperties: false },
);
export type BarcodeLayerT = Static<typeof BarcodeLayer>;
export type Symbology = NonNullable<BarcodeLayerT["symbology"]>;

const NAMES: Record<Symbology, string> = { code128: "Code 128", ean13: "EAN-13", upca: "UPC-A" };

export interface EncodedSymbol {
  /** "1" a dark module, "0" a light one. */
  modules: string;
  /** The human-readable line. */
  text: string;
}

/** Digits of a fixed-length symbology: `lengths` (without and with the check digit). */
function digitsProblem(value: string, lengths: readonly [number, number]): string | null {
  const expected = `${lengths[0]} or ${lengths[1]} digits expected`;
  const other = /[^0-9]/u.exec(value)?.[0];
  if (other !== undefined) return `${expected} (found ${JSON.stringify(other)})`;
  if (value.length !== lengths[0] && value.length !== lengths[1]) {
    return `${expected} (got ${value.length})`;
  }
  return null;
}

/** An EAN/UPC value through its jsbarcode encoder (which adds a missing check digit and verifies one given). */
function encodeRetail(value: string, encoder: typeof EAN13, lengths: readonly [number, number]) {
  const problem = digitsProblem(value, lengths);
  if (problem !== null) return problem;
  const symbol = new encoder(value, { flat: true });
  if (!symbol.valid()) {
    const expected = new encoder(value.slice(0, lengths[0]), { flat: true }).data.at(-1);
    return `check digit ${value.at(-1)} is wrong (expected ${expected})`;
  }
  return symbol;
}

/** The modules and text of `value`, or why the symbology cannot hold it. */
export function encodeBarcode(value: string, symbology: Symbology): EncodedSymbol | string {
  const refused = (reason: string) => `cannot be encoded as ${NAMES[symbology]}: ${reason}`;
  if (symbology === "code128") {
    const other = /\P{ASCII}/u.exec(value)?.[0];
    if (other !== undefined)
      return refused(`only ASCII characters are allowed (found ${JSON.stringify(other)})`);
    if (value.length > BARCODE_MAX_LENGTH) {
      return refused(`at most ${BARCODE_MAX_LENGTH} characters (got ${value.length})`);
    }
    const symbol = new CODE128(value, {});
    if (!symbol.valid()) return refused("not encodable");
    // Control characters are encoded but not shown.
    return { modules: symbol.encode().data, text: value.replace(/\p{Cc}/gu, "") };
  }
  const symbol =
    symbology === "ean13" ? encodeRetail(value, EAN13, [12, 13]) : encodeRetail(value, UPC, [11, 12]);
  if (typeof symbol === "string") return refused(symbol);
  const digits = symbol.data;
  // Grouped as printed on packs: 4 006381 333931 (EAN-13), 0 36000 29145 2 (UPC-A).
  const text =
    symbology === "ean13"
      ? `${digits.slice(0, 1)} ${digits.slice(1, 7)} ${digits.slice(7)}`
      : `${digits.slice(0, 1)} ${digits.slice(1, 6)} ${digits.slice(6, 11)} ${digits.slice(11)}`;
  return { modules: symbol.encode().data, text };
}

export const symbologyOf = (layer: BarcodeLayerT): Symbology => layer.symbology ?? "code128";
export const showsText = (layer: BarcodeLayerT) => layer.show_text !== false;
export const fontFamily = (layer: BarcodeLayerT) => layer.font?.family ?? "Inter";
/** The human-readable text's size in template px (also what the painter lets it overhang). */
export const fontSize = (layer: BarcodeLayerT) => layer.font?.size ?? layer.height / 6;

export const barcodeDefinition = defineLayer<BarcodeLayerT>({
  type: "barcode",
  schema: BarcodeLayer,
  bindable: { value: "text", color: "color", background: "color" },
  paints: ["color", "background"],
  fontFamilies: (layer) => (showsText(layer) ? [fontFamily(layer)] : []),
  ...encodableValueChecks<BarcodeLayerT>((layer, value) => {
    const symbol = encodeBarcode(value, symbologyOf(layer));
    return typeof symbol === "string" ? symbol : null;
  }),
});
