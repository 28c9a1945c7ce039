/// <reference path="../types/qrcode-core.d.ts" />
import { type Static, Type as T } from "@sinclair/typebox";
import qrcode from "qrcode/lib/core/qrcode.js";
import { layerCommon, Paint } from "../document/common.ts";
import type { PaintContext } from "../render/context.ts";
import { EngineError } from "../render/errors.ts";
import { LastUsed } from "../render/last-used.ts";
import {
  beginCrispFill,
  boundValue,
  drawBackground,
  drawInPaint,
  encodableValueChecks,
  endCrispFill,
} from "./coded-value.ts";
import { defineLayerKind } from "./kind.ts";

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

interface QrMatrix {
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
function encode(value: string, level: NonNullable<QrLayerT["error_correction"]>): QrMatrix | string {
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

export const qrKind = defineLayerKind<QrLayerT>({
  type: "qr",
  schema: QrLayer,
  bindable: { value: "text", color: "color", background: "color" },
  paints: ["color", "background"],
  paint: paintQr,
  ...encodableValueChecks<QrLayerT>((layer, value) => {
    const matrix = encode(value, layer.error_correction ?? "M");
    return typeof matrix === "string" ? matrix : null;
  }),
});

function paintQr(ctx: PaintContext, layer: QrLayerT, path: string): void {
  const value = boundValue(layer, path, ctx.bindings);
  if (value.value === "") return;
  const matrix = encode(value.value, layer.error_correction ?? "M");
  if (typeof matrix === "string") throw new EngineError("value_not_encodable", value.path, matrix);
  const { ck, canvas } = ctx;
  const quiet = layer.quiet_zone ?? 4;
  const side = Math.min(layer.width, layer.height);
  const module = side / (matrix.size + quiet * 2);
  const left = layer.x + (layer.width - side) / 2;
  const top = layer.y + (layer.height - side) / 2;
  const box = { x: left, y: top, width: side, height: side };
  beginCrispFill(ctx);
  drawBackground(ctx, layer, path, box);
  const origin = quiet * module;
  // One path of every dark module's square, built in one call: a call per square cost ~1 µs each.
  const commands: number[] = [];
  for (let row = 0; row < matrix.size; row++) {
    for (let column = 0; column < matrix.size; column++) {
      if (matrix.data[row * matrix.size + column] !== 1) continue;
      const x0 = left + origin + column * module;
      const y0 = top + origin + row * module;
      const x1 = x0 + module;
      const y1 = y0 + module;
      // Clockwise from the top-left corner, as addRect adds a rectangle.
      commands.push(
        ck.MOVE_VERB,
        x0,
        y0,
        ck.LINE_VERB,
        x1,
        y0,
        ck.LINE_VERB,
        x1,
        y1,
        ck.LINE_VERB,
        x0,
        y1,
        ck.CLOSE_VERB,
      );
    }
  }
  const modules = ck.Path.MakeFromCmds(commands);
  if (modules === null) throw new Error("could not build the QR code's modules");
  drawInPaint(ctx, layer, path, "color", layer.color ?? "#000000", box, () => {
    canvas.drawPath(modules, ctx.paint);
  });
  modules.delete();
  endCrispFill(ctx);
}
