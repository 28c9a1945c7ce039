import type { PaintT } from "../document/common.ts";
import type { SlotValueError } from "../document/values.ts";
import type { Bindings, Resolved } from "../render/bindings.ts";
import type { PaintContext } from "../render/context.ts";
import { applyPaint, type PaintBox, resolvePaint } from "../render/paint.ts";
import type { LayerBase, LayerKind } from "./kind.ts";

/**
 * What the machine-readable kinds (`qr`, `barcode`) share: a `value` bindable to a text slot that the
 * symbology may refuse, and modules drawn crisply in a paint.
 */
export interface CodedLayer extends LayerBase {
  value: string;
}

/** The layer's value after binding (the request's, the slot's default, or the design value). */
export function boundValue(layer: CodedLayer, path: string, bindings: Bindings): Resolved<string> {
  return bindings.resolve(layer.bind, "value", layer.value, `${path}.value`, layer.id);
}

/**
 * `validate` and `checkValues` of a kind whose value may not be encodable. `problem` says why a
 * value cannot be encoded (null when it can). An unbound design value is checked when the document is
 * validated (error at `<layer>.value`); a bound value when a render's values are checked, before
 * anything is charged (`unencodable`, naming the slot). An empty value draws nothing and is accepted.
 */
export function encodableValueChecks<L extends CodedLayer>(
  problem: (layer: L, value: string) => string | null,
): Required<Pick<LayerKind<L>, "validate" | "checkValues">> {
  return {
    validate(layer, path) {
      if (layer.bind?.value !== undefined || layer.value === "") return [];
      const message = problem(layer, layer.value);
      return message === null ? [] : [{ path: `${path}.value`, message }];
    },
    checkValues(layer, path, bindings): SlotValueError[] {
      const value = boundValue(layer, path, bindings);
      if (value.slot === null || value.value === "") return [];
      const message = problem(layer, value.value);
      if (message === null) return [];
      return [{ path: value.path, slot: value.slot, kind: "unencodable", message }];
    },
  };
}

/**
 * Sets the shared paint up for modules: filled, opaque, no antialiasing (module edges land on whole
 * device pixels, with no seams between neighbours). Call `endCrispFill` when done.
 */
export function beginCrispFill(ctx: PaintContext): void {
  ctx.paint.setAntiAlias(false);
  ctx.paint.setAlphaf(1);
  ctx.paint.setStyle(ctx.ck.PaintStyle.Fill);
}

export function endCrispFill(ctx: PaintContext): void {
  ctx.paint.setAntiAlias(true);
}

/**
 * Draws with the layer's paint property `property` (after binding; a gradient laid out over `box`):
 * `draw` issues the canvas calls with the shared paint set to it.
 */
export function drawInPaint(
  ctx: PaintContext,
  layer: CodedLayer,
  path: string,
  property: string,
  design: PaintT,
  box: PaintBox,
  draw: () => void,
): void {
  const resolved = resolvePaint(ctx.bindings, layer.bind, property, design, `${path}.${property}`, layer.id);
  const release = applyPaint(ctx.ck, ctx.paint, resolved.value, resolved.path, box);
  draw();
  release();
}

/** The light background of a code: white by default, none when the design sets `null`. */
export function drawBackground(
  ctx: PaintContext,
  layer: CodedLayer & { background?: PaintT | null },
  path: string,
  box: PaintBox,
): void {
  const background = layer.background === undefined ? "#FFFFFF" : layer.background;
  if (background === null) return;
  drawInPaint(ctx, layer, path, "background", background, box, () => {
    ctx.canvas.drawRect(ctx.ck.XYWHRect(box.x, box.y, box.width, box.height), ctx.paint);
  });
}
