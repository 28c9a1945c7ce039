import { boundValue } from "../../document/layers/coded-value.ts";
import { encodeQr, type QrLayerT } from "../../document/layers/qr.ts";
import type { PaintContext } from "../context.ts";
import { EngineError } from "../errors.ts";
import { beginCrispFill, drawBackground, drawInPaint, endCrispFill } from "./coded-value.ts";
import { definePainter } from "./painter.ts";

export const qrPainter = definePainter<QrLayerT>({ paint: paintQr });

function paintQr(ctx: PaintContext, layer: QrLayerT, path: string): void {
  const value = boundValue(layer, path, ctx.bindings);
  if (value.value === "") return;
  const matrix = encodeQr(value.value, layer.error_correction ?? "M");
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
