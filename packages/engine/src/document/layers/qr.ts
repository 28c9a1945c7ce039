/// <reference path="../../types/qrcode-core.d.ts" />
import { type Static, Type as T } from "@sinclair/typebox";
import qrcode from "qrcode/lib/core/qrcode.js";
import { LastUsed } from "../../shared/last-used.ts";
import { layerCommon, Paint } from "../common.ts";
import { encodableValueChecks } from "./coded-value.ts";
import { defineLayer } from "./kind.ts";

/**
 * A QR code of `value` (bindable to a text slot), drawn by the engine from the matrix the `qrcode`
 * library computes: a square of the box's shorter side, centred, `quiet_zone` light modules around the
 * code (4, the standard's minimum for reliable scanning). An empty value draws nothing.
 */
export const QrLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("qr"),
    value: T.String({ maxLength: 7089 }),
    error_correction: T.Optional(
      T.Union([T.Literal("L"), T.Literal("M"), T.Literal("Q"), T.Literal("H")], { default: "M" }),
    ),
    /** The dark modules. */
    color: T.Optional(Paint),
    /** The light modules and the quiet zone; null leaves them transparent. */
    background: T.Optional(T.Union([Paint, T.Null()])),
    quiet_zone: T.Optional(T.Integer({ minimum: 0, maximum: 16, default: 4 })),
  },
  { additionalProperties: false },
);
export type QrLayerT = Static<typeof QrLayer>;

export interface QrMatrix {
  size: number;
  /** Row-major, 1 = dark module. */
  data: Uint8Array;
}

/**
 * The last few encodings, by level and value: a value is encoded when checked and again when drawn,
 * and templates often show one value (a campaign link) on many renders. Computing a symbol's masks
 * and their penalties is most of a QR layer's cost (~0.4 ms).
 */
const encodings = new LastUsed<QrMatrix | string>(16);

/** The module matrix, or the reason the value cannot be encoded at this level. */
export function encodeQr(value: string, level: NonNullable<QrLayerT["error_correction"]>): QrMatrix | string {
  return encodings.get(`${level}:${value}`, () => encodeNow(value, level));
}

function encodeNow(value: string, level: NonNullable<QrLayerT["error_correction"]>): QrMatrix | string {
  try {
    const symbol = qrcode.create(value, { errorCorrectionLevel: level });
    return { size: symbol.modules.size, data: symbol.modules.data };
  } catch (error) {
    return `cannot be encoded as a QR code at error correction level ${level}: ${(error as Error).message}`;
  }
}

export const qrDefinition = defineLayer<QrLayerT>({
  type: "qr",
  schema: QrLayer,
  bindable: { value: "text", color: "color", background: "color" },
  paints: ["color", "background"],
  ...encodableValueChecks<QrLayerT>((layer, value) => {
    const matrix = encodeQr(value, layer.error_correction ?? "M");
    return typeof matrix === "string" ? matrix : null;
  }),
});
