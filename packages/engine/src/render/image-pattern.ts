import type { Shader } from "canvaskit-wasm";
import type { ImageRequest } from "../api.ts";
import { type ImagePatternPaintT, isImagePattern, type PaintT } from "../document/common.ts";
import { toDevice } from "./geometry.ts";
import type { PaintBox, PaintSource } from "./paint.ts";
import { drawablePixels } from "./premultiply.ts";
import { pixelImage } from "./surface.ts";

const DEFAULT_TILE = 64;
const CENTRE = { x: 0.5, y: 0.5 };

/**
 * The pixels an image pattern needs: one tile, `size` x `tile_height` template px at the render's
 * scale, fitted as the paint says. The key follows image layers' (image-plan.ts), so a host prepares
 * one picture once when a layer and a pattern need the same pixels.
 */
export function imagePatternRequest(value: ImagePatternPaintT, scale: number): ImageRequest {
  const tile = tileOf(value);
  const width = Math.max(1, toDevice(tile.width, scale));
  const height = Math.max(1, toDevice(tile.height, scale));
  const fit = value.fit ?? "cover";
  const focalKey = fit === "cover" ? `${CENTRE.x},${CENTRE.y}` : "-";
  return {
    key: `${width}x${height}|${fit}|${focalKey}|${value.image}`,
    src: value.image,
    slot: null,
    width,
    height,
    fit,
    focal: { ...CENTRE },
  };
}

/** The tile's size in template px. */
function tileOf(value: ImagePatternPaintT): { width: number; height: number } {
  const width = value.size ?? DEFAULT_TILE;
  return { width, height: value.tile_height ?? width };
}

/**
 * The shader of an image pattern: its prepared tile repeated across the plane, mapped back from
 * device pixels to the tile's template size, its origin at the box's top-left corner plus `offset`,
 * turned `angle` degrees about that origin, sampled linearly (a turned tile needs it; an axis-aligned
 * one lands pixel on pixel). Null when the host prepared no pixels (an image that failed to load
 * draws nothing, as an image layer's). The caller deletes it.
 */
export function imagePatternShader(
  source: PaintSource,
  value: ImagePatternPaintT,
  box: PaintBox,
): Shader | null {
  const { ck } = source;
  const request = imagePatternRequest(value, source.scale);
  const prepared = source.images.get(request.key);
  if (prepared === undefined || prepared.width !== request.width || prepared.height !== request.height) {
    return null;
  }
  const drawable = drawablePixels(prepared.rgba);
  const image = pixelImage(ck, drawable.pixels, prepared.width, prepared.height, drawable.opaque);
  const tile = tileOf(value);
  const originX = box.x + (value.offset?.x ?? 0);
  const originY = box.y + (value.offset?.y ?? 0);
  const angle = value.angle ?? 0;
  const matrix = ck.Matrix.multiply(
    ck.Matrix.translated(originX, originY),
    ck.Matrix.rotated((angle * Math.PI) / 180),
    ck.Matrix.scaled(tile.width / prepared.width, tile.height / prepared.height),
  );
  const shader = image.makeShaderOptions(
    ck.TileMode.Repeat,
    ck.TileMode.Repeat,
    ck.FilterMode.Linear,
    ck.MipmapMode.None,
    matrix,
  );
  image.delete();
  return shader;
}

const identities = new WeakMap<object, number>();
let nextIdentity = 1;

/**
 * Which pixels an image pattern draws in this render, for caches keyed by the paint (the frame's
 * last background): the same `image` may be prepared with other pixels in a later render.
 */
export function imagePatternIdentity(source: PaintSource, value: ImagePatternPaintT): string {
  const prepared = source.images.get(imagePatternRequest(value, source.scale).key);
  if (prepared === undefined) return "none";
  let identity = identities.get(prepared.rgba);
  if (identity === undefined) {
    identity = nextIdentity++;
    identities.set(prepared.rgba, identity);
  }
  return String(identity);
}

/**
 * The image patterns an object's own properties paint with (a layer's fill, stroke colour, text
 * colour, a chart's colours; a frame's background), children (`layers`) left to their own walk. A
 * property bound to a colour slot draws that colour instead: its pattern needs no image.
 */
export function imagePatternsOf(owner: object): ImagePatternPaintT[] {
  const bind = (owner as { bind?: Readonly<Record<string, string>> }).bind ?? {};
  const found: ImagePatternPaintT[] = [];
  const visit = (value: unknown, property: string) => {
    if (typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, `${property}[${i}]`);
      return;
    }
    if (isImagePattern(value as PaintT)) {
      if (bind[property] === undefined) found.push(value as ImagePatternPaintT);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      if (property === "" && (key === "layers" || key === "bind")) continue;
      visit(item, property === "" ? key : `${property}.${key}`);
    }
  };
  visit(owner, "");
  return found;
}
