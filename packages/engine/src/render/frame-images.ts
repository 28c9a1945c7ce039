import type { ImageRequest } from "../api.ts";
import type { Layer } from "../document/schema.ts";
import type { Bindings } from "./bindings.ts";
import { forEachDrawnLayer } from "./drawn-layers.ts";
import { kindOf } from "./painters/registry.ts";

// Apart from image-plan.ts, which the image painter uses: planning walks every kind (the registry).

/** Every image a frame's drawn layers need, deduplicated by key, in paint order. */
export function planFrameImages(
  layers: readonly Layer[],
  framePath: string,
  bindings: Bindings,
  scale: number,
): ImageRequest[] {
  const byKey = new Map<string, ImageRequest>();
  forEachDrawnLayer(layers, framePath, bindings, (layer, path) => {
    for (const request of kindOf(layer).images?.(layer, path, bindings, scale) ?? []) {
      if (!byKey.has(request.key)) byKey.set(request.key, request);
    }
  });
  return [...byKey.values()];
}
