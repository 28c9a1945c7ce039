import type { LayerBase } from "../document/layers/kind.ts";
import type { Layer } from "../document/schema.ts";
import type { PaintContext } from "./context.ts";
import type { Arranger, Size, SizeQuery } from "./painters/painter.ts";
import { kindOf } from "./painters/registry.ts";

// Boxes that follow their content (`layout`): a layer that hugs is measured by its kind, a container
// that places its children (a stack) arranges them; the painters see the result as an ordinary layer.

/** Layers already in their final box this render (a stack's placed children): drawn as they are. */
const settled = new WeakSet<object>();

/** Each render context's arranger, made once instead of for every laid-out layer. */
const arrangers = new WeakMap<PaintContext, Arranger>();

/**
 * The layer as drawn: its box sized to its content where its `layout` hugs (within its maximum), and a
 * container's children placed. The same object when nothing follows content.
 */
export function laidOut(ctx: PaintContext, layer: Layer, path: string): Layer {
  if (settled.has(layer)) return layer;
  const kind = kindOf(layer);
  const width = hugsOn(layer, "width");
  const height = hugsOn(layer, "height");
  if (!width && !height && kind.arrange === undefined) return layer;
  let arranger = arrangers.get(ctx);
  if (arranger === undefined) {
    arranger = arrangerFor(ctx);
    arrangers.set(ctx, arranger);
  }
  let sized: Layer = layer;
  if (width || height) {
    const size = arranger.measure(layer, path, {
      width: width ? null : layer.width,
      height: height ? null : layer.height,
    });
    sized = { ...layer, width: size.width, height: size.height };
  }
  return arranger.place(sized, path) as Layer;
}

function hugsOn(layer: LayerBase, axis: "width" | "height"): boolean {
  return (layer as Layer).layout?.[axis] === "hug" && kindOf(layer).hugs === true;
}

/** Whether the layer's box follows its content on some axis (it is drawn even if designed empty). */
export function hugsContent(layer: LayerBase): boolean {
  return hugsOn(layer, "width") || hugsOn(layer, "height");
}

function arrangerFor(ctx: PaintContext): Arranger {
  const arranger: Arranger = {
    shows(layer, path) {
      const l = layer as Layer;
      if (l.visible === false || (l.opacity ?? 1) <= 0) return false;
      if (l.visible_when !== undefined && !ctx.bindings.holds(l.visible_when)) return false;
      return kindOf(layer).isEmpty?.(layer, path, ctx.bindings) !== true;
    },
    sizing(layer) {
      const kind = kindOf(layer);
      const layout = (layer as Layer).layout;
      const axis = (sizing: "fixed" | "hug" | "fill" | undefined) => {
        if (kind.keepsSize === true || sizing === undefined) return "fixed" as const;
        if (sizing === "hug" && kind.hugs !== true) return "fixed" as const;
        return sizing;
      };
      return { width: axis(layout?.width), height: axis(layout?.height) };
    },
    stretches: (layer) => kindOf(layer).keepsSize !== true,
    measure(layer, path, box) {
      const kind = kindOf(layer);
      if (kind.measure === undefined || kind.hugs !== true)
        return { width: layer.width, height: layer.height };
      let answers = ctx.measured.get(layer);
      if (answers === undefined) {
        answers = new Map();
        ctx.measured.set(layer, answers);
      }
      // The answers are the layer object's own (a repeat's copies are objects of their own).
      const question = `${box.width}|${box.height}`;
      const known = answers.get(question);
      if (known !== undefined) return known;
      const size = measureWithin(ctx, layer, path, box, arranger);
      answers.set(question, size);
      return size;
    },
    place(layer, path) {
      const kind = kindOf(layer);
      const placed = kind.arrange === undefined ? layer : kind.arrange(ctx, layer, path, arranger);
      settled.add(placed);
      ctx.boxes[layer.id] = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
      return placed;
    },
  };
  return arranger;
}

/** The kind's measure, kept within the layer's `max_width` / `max_height`: a text too wide wraps at the maximum. */
function measureWithin(
  ctx: PaintContext,
  layer: LayerBase,
  path: string,
  box: SizeQuery,
  arranger: Arranger,
): Size {
  const kind = kindOf(layer);
  const measure = kind.measure as NonNullable<typeof kind.measure>;
  const layout = (layer as Layer).layout;
  const maxWidth = layout?.max_width ?? Number.POSITIVE_INFINITY;
  const maxHeight = layout?.max_height ?? Number.POSITIVE_INFINITY;
  let size = measure(ctx, layer, path, box, arranger);
  if (box.width === null && size.width > maxWidth) {
    size = measure(ctx, layer, path, { width: maxWidth, height: box.height }, arranger);
  }
  if (box.height === null && size.height > maxHeight) size = { width: size.width, height: maxHeight };
  return size;
}
