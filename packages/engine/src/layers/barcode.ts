/// <reference path="../types/jsbarcode-encoders.d.ts" />
import { type Static, Type as T } from "@sinclair/typebox";
import { CODE128 } from "jsbarcode/bin/barcodes/CODE128/index.js";
import { EAN13, UPC } from "jsbarcode/bin/barcodes/EAN_UPC/index.js";
import { layerCommon, Paint } from "../document/common.ts";
import { parseHexColor } from "../render/color.ts";
import type { PaintContext } from "../render/context.ts";
import { EngineError } from "../render/errors.ts";
import { type PaintBox, resolvePaint } from "../render/paint.ts";
import { layoutText } from "../render/text-box.ts";
import { drawTextPasses, firstColorOf } from "../render/text-styles.ts";
import {
  beginCrispFill,
  boundValue,
  drawBackground,
  drawInPaint,
  encodableValueChecks,
  endCrispFill,
} from "./coded-value.ts";
import { defineLayerKind } from "./kind.ts";

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
type Symbology = NonNullable<BarcodeLayerT["symbology"]>;

const NAMES: Record<Symbology, string> = { code128: "Code 128", ean13: "EAN-13", upca: "UPC-A" };

interface EncodedSymbol {
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
function encode(value: string, symbology: Symbology): EncodedSymbol | string {
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

const symbologyOf = (layer: BarcodeLayerT): Symbology => layer.symbology ?? "code128";
const showsText = (layer: BarcodeLayerT) => layer.show_text !== false;
const fontFamily = (layer: BarcodeLayerT) => layer.font?.family ?? "Inter";
const fontSize = (layer: BarcodeLayerT) => layer.font?.size ?? layer.height / 6;

export const barcodeKind = defineLayerKind<BarcodeLayerT>({
  type: "barcode",
  schema: BarcodeLayer,
  bindable: { value: "text", color: "color", background: "color" },
  paints: ["color", "background"],
  paint: paintBarcode,
  overhang: (layer) => 1 + (showsText(layer) ? fontSize(layer) : 0),
  fontFamilies: (layer) => (showsText(layer) ? [fontFamily(layer)] : []),
  ...encodableValueChecks<BarcodeLayerT>((layer, value) => {
    const symbol = encode(value, symbologyOf(layer));
    return typeof symbol === "string" ? symbol : null;
  }),
});

/**
 * Module width in template px: the largest whole number of device pixels that fits the box, so bars
 * are crisp and equally wide; a box narrower than one device pixel per module gets fractional modules.
 */
function moduleWidth(width: number, modules: number, scale: number): number {
  const devicePixels = Math.floor((width * scale) / modules);
  return devicePixels >= 1 ? devicePixels / scale : width / modules;
}

function paintBarcode(ctx: PaintContext, layer: BarcodeLayerT, path: string): void {
  const value = boundValue(layer, path, ctx.bindings);
  if (value.value === "") return;
  const symbology = symbologyOf(layer);
  const symbol = encode(value.value, symbology);
  if (typeof symbol === "string") throw new EngineError("value_not_encodable", value.path, symbol);
  const { ck, canvas, scale } = ctx;
  const box: PaintBox = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
  const size = fontSize(layer);
  const text = showsText(layer) ? symbol.text : "";
  // The text line (size x 1.2) plus a gap of a quarter of the size above it.
  const textHeight = text === "" ? 0 : Math.min(layer.height, size * 1.45);
  const barsHeight = layer.height - textHeight;

  beginCrispFill(ctx);
  drawBackground(ctx, layer, path, box);
  const quiet = layer.quiet_zone ?? DEFAULT_QUIET_ZONE[symbology];
  const module = moduleWidth(layer.width, symbol.modules.length + quiet * 2, scale);
  const symbolWidth = module * (symbol.modules.length + quiet * 2);
  // Centred, with the left edge on a device pixel so every bar edge is on one.
  const left = Math.round((layer.x + (layer.width - symbolWidth) / 2) * scale) / scale + quiet * module;
  const color = layer.color ?? "#000000";
  if (barsHeight > 0) {
    const builder = new ck.PathBuilder();
    for (let start = 0; start < symbol.modules.length; ) {
      if (symbol.modules[start] !== "1") {
        start++;
        continue;
      }
      let end = start;
      while (symbol.modules[end] === "1") end++;
      builder.addRect(ck.XYWHRect(left + start * module, layer.y, (end - start) * module, barsHeight));
      start = end;
    }
    const bars = builder.detachAndDelete();
    drawInPaint(ctx, layer, path, "color", color, box, () => canvas.drawPath(bars, ctx.paint));
    bars.delete();
  }
  endCrispFill(ctx);
  if (text !== "")
    drawText(ctx, layer, path, text, size, { ...box, y: layer.y + barsHeight, height: textHeight });
}

/** The human-readable line, centred in `area` (below the bars), in the bars' paint; shrunk to fit its width. */
function drawText(
  ctx: PaintContext,
  layer: BarcodeLayerT,
  path: string,
  text: string,
  size: number,
  area: PaintBox,
): void {
  const design = layer.color ?? "#000000";
  const paint = resolvePaint(ctx.bindings, layer.bind, "color", design, `${path}.color`, layer.id);
  const layout = layoutText(
    ctx.paragraphs,
    {
      text,
      families: ctx.fonts.familiesFor(fontFamily(layer)),
      size,
      lineHeight: 1.2,
      letterSpacing: 0,
      weight: 400,
      italic: false,
      color: parseHexColor(firstColorOf(paint.value), paint.path),
      align: "center",
      rtl: false,
    },
    { width: area.width, height: area.height },
    { maxLines: 1, shrink: true, minSize: Math.min(size, 4) },
  );
  const origin = { x: area.x, y: area.y + area.height - layout.paragraph.getHeight() };
  const box = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
  drawTextPasses(ctx, layout, paint, null, origin, box);
  layout.paragraph.delete();
}
