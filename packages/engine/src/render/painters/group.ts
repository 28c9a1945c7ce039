import type { GroupLayerT } from "../../document/layers/group.ts";
import type { LayerBase } from "../../document/layers/kind.ts";
import type { Layer } from "../../document/schema.ts";
import { insetsOf } from "../padding.ts";
import { type Arranger, definePainter, type Size, type SizeQuery } from "./painter.ts";

/** The children are drawn by the common pipeline (render/layers.ts), in the group's coordinates. */
export const groupPainter = definePainter<GroupLayerT>({
  paint(ctx, layer, path) {
    ctx.canvas.translate(layer.x, layer.y);
    ctx.paintLayers(layer.layers, path);
  },
  measure: (_ctx, layer, path, box, arranger) => fitted(layer, path, box, arranger).size,
  arrange(_ctx, layer, path, arranger) {
    // A hugging axis is measured again here: the children move by the padding less their low edge.
    const fit = fitted(
      layer,
      path,
      {
        width: layer.layout?.width === "hug" ? null : layer.width,
        height: layer.layout?.height === "hug" ? null : layer.height,
      },
      arranger,
    );
    if (fit.layers === null) return layer;
    return { ...layer, layers: fit.layers };
  },
});

/**
 * The group fitted to its children where it hugs: its size (their bounding box plus padding, on a
 * hugging axis) and its children moved into it, each in its final box (a filling child spans the
 * group); `layers` null when nothing changes (no child hugs or fills, the group hugs nothing).
 */
function fitted(
  layer: GroupLayerT,
  path: string,
  box: SizeQuery,
  arranger: Arranger,
): { size: Size; layers: Layer[] | null } {
  const childPath = (i: number) => `${path}.layers[${i}]`;
  const sizings = layer.layers.map((child) => arranger.sizing(child));
  const changes = box.width === null || box.height === null || sizings.some(moves);
  if (!changes) return { size: { width: layer.width, height: layer.height }, layers: null };
  // Each shown child at its own size (hugging ones measured), for the bounding box.
  const boxes = layer.layers.map((child, i): LayerBase => {
    const sizing = sizings[i] as ReturnType<Arranger["sizing"]>;
    if (sizing.width !== "hug" && sizing.height !== "hug") return child;
    const size = arranger.measure(child, childPath(i), {
      width: sizing.width === "hug" ? null : child.width,
      height: sizing.height === "hug" ? null : child.height,
    });
    return { ...child, width: size.width, height: size.height };
  });
  const counted = boxes.filter((child, i) => arranger.shows(child, childPath(i)));
  const pad = insetsOf(layer.padding);
  // On a hugging axis: the bounding box of the children that do not fill it, plus padding, and how far
  // the children move so that the box starts at the padding.
  const axis = (given: number | null, start: "x" | "y", length: "width" | "height") => {
    const sized = counted.filter((child) => arranger.sizing(child)[length] !== "fill");
    if (given !== null || sized.length === 0) return { size: given ?? 0, shift: 0 };
    const low = Math.min(...sized.map((child) => child[start]));
    const high = Math.max(...sized.map((child) => child[start] + child[length]));
    const before = start === "x" ? pad.left : pad.top;
    const after = start === "x" ? pad.right : pad.bottom;
    return { size: high - low + before + after, shift: before - low };
  };
  const across = axis(box.width, "x", "width");
  const down = axis(box.height, "y", "height");
  const layers = boxes.map((child, i) => {
    const sizing = sizings[i] as ReturnType<Arranger["sizing"]>;
    const placed: LayerBase = {
      ...child,
      x: sizing.width === "fill" ? 0 : child.x + across.shift,
      y: sizing.height === "fill" ? 0 : child.y + down.shift,
      width: sizing.width === "fill" ? across.size : child.width,
      height: sizing.height === "fill" ? down.size : child.height,
    };
    return arranger.place(placed, childPath(i)) as Layer;
  });
  return { size: { width: across.size, height: down.size }, layers };
}

/** Whether a child's box follows content or the group (it hugs or fills an axis). */
function moves(sizing: ReturnType<Arranger["sizing"]>): boolean {
  return sizing.width !== "fixed" || sizing.height !== "fixed";
}
