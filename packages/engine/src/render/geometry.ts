import type { FrameT, Layer, TemplateDocumentT } from "../document/schema.ts";
import { kindOf } from "../layers/registry.ts";
import type { Bindings } from "./bindings.ts";
import { EngineError } from "./errors.ts";

export const MIN_SCALE = 1;
export const MAX_SCALE = 4;

export function checkScale(scale: number | undefined): number {
  const value = scale ?? 1;
  if (typeof value !== "number" || !Number.isFinite(value) || value < MIN_SCALE || value > MAX_SCALE) {
    throw new EngineError("invalid_scale", "scale", `must be a number from ${MIN_SCALE} to ${MAX_SCALE}`);
  }
  return value;
}

export interface FrameRef {
  frame: FrameT;
  /** JSON path of the frame, e.g. `frames[1]`. */
  path: string;
}

export function findFrame(document: TemplateDocumentT, name: string | undefined): FrameRef {
  const index = name === undefined ? 0 : document.frames.findIndex((frame) => frame.name === name);
  const frame = document.frames[index];
  if (!frame) {
    const known = document.frames.map((f) => f.name).join(", ");
    throw new EngineError(
      "frame_not_found",
      "frame",
      `no frame named ${JSON.stringify(name)} (frames: ${known})`,
    );
  }
  return { frame, path: `frames[${index}]` };
}

/** Device pixels for a length in template pixels; output and image boxes both round this way. */
export function toDevice(length: number, scale: number): number {
  return Math.round(length * scale);
}

/**
 * Whether a layer draws anything at all: hidden, fully transparent and condition-failing
 * (`visible_when`) layers are skipped (children too), and so are empty boxes, except a container's
 * (a group's box only sets its rotation centre). `bindings` is null where no slot values are known.
 */
export function isDrawn(layer: Layer, bindings: Bindings | null): boolean {
  if (layer.visible === false || (layer.opacity ?? 1) <= 0) return false;
  if (layer.visible_when !== undefined && bindings !== null && !bindings.holds(layer.visible_when))
    return false;
  const kind = kindOf(layer);
  return (
    kind.children !== undefined || kind.drawsWithoutArea === true || (layer.width > 0 && layer.height > 0)
  );
}

/** Calls `visit` for every drawn layer, depth first, in paint order, with its JSON path. */
export function forEachDrawnLayer(
  layers: readonly Layer[],
  path: string,
  bindings: Bindings | null,
  visit: (layer: Layer, path: string) => void,
): void {
  layers.forEach((layer, index) => {
    if (!isDrawn(layer, bindings)) return;
    const layerPath = `${path}.layers[${index}]`;
    visit(layer, layerPath);
    const children = kindOf(layer).children?.(layer);
    if (children) forEachDrawnLayer(children as Layer[], layerPath, bindings, visit);
  });
}
