import type { ImageFit, ImageRequest } from "../api.ts";
import type { ImageLayerT } from "../document/schema.ts";
import type { Bindings } from "./bindings.ts";
import { toDevice } from "./geometry.ts";

const CENTRE = { x: 0.5, y: 0.5 };
const FRACTION = { left: 0, top: 0, center: 0.5, right: 1, bottom: 1 } as const;

/** The layer's `align` as fractions of the free space on each axis (0 left/top, 1 right/bottom). */
function anchorOf(layer: ImageLayerT): { x: number; y: number } {
  if (layer.align === undefined) return CENTRE;
  return { x: FRACTION[layer.align.x ?? "center"], y: FRACTION[layer.align.y ?? "center"] };
}

/**
 * The one place that decides which pixels an image layer needs. `planImages` returns these requests
 * to the host (render/frame-images.ts) and `render` looks the same keys up, so they cannot drift apart.
 */
export function imageRequestFor(
  layer: ImageLayerT,
  path: string,
  bindings: Bindings,
  scale: number,
): ImageRequest | null {
  const src = bindings.resolve(layer.bind, "src", layer.src, `${path}.src`, layer.id);
  const width = toDevice(layer.width, scale);
  const height = toDevice(layer.height, scale);
  if (src.value === "" || width === 0 || height === 0) return null;
  const fit: ImageFit = layer.fit ?? "cover";
  // `focal` tells the host which part of the picture matters: for cover the point kept in view
  // (`align` standing in for an absent focal point), for contain the anchor (0, 0.5 or 1 an axis).
  const anchor = anchorOf(layer);
  const focal = fit === "contain" ? anchor : (layer.focal ?? anchor);
  // The focal point only changes pixels when cover crops or contain keeps off the centre; keeping it
  // out of other keys lets hosts share one prepared image between layers that differ only in an
  // unused focal point.
  const centred = focal.x === 0.5 && focal.y === 0.5;
  const focalKey = fit === "cover" || (fit === "contain" && !centred) ? `${focal.x},${focal.y}` : "-";
  const key = `${width}x${height}|${fit}|${focalKey}|${src.value}`;
  return { key, src: src.value, slot: src.slot, width, height, fit, focal: { x: focal.x, y: focal.y } };
}
