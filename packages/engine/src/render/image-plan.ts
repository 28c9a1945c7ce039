import type { ImageFit, ImageRequest } from "../api.ts";
import type { ImageLayerT } from "../document/schema.ts";
import type { Bindings } from "./bindings.ts";
import { toDevice } from "./geometry.ts";

const CENTRE = { x: 0.5, y: 0.5 };

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
  const focal = layer.focal ?? CENTRE;
  // The focal point only changes pixels when cover crops; keeping it out of other keys lets hosts
  // share one prepared image between layers that differ only in an unused focal point.
  const focalKey = fit === "cover" ? `${focal.x},${focal.y}` : "-";
  const key = `${width}x${height}|${fit}|${focalKey}|${src.value}`;
  return { key, src: src.value, slot: src.slot, width, height, fit, focal: { x: focal.x, y: focal.y } };
}
