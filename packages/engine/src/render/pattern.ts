import type { CanvasKit, Shader } from "canvaskit-wasm";
import { PATTERN_BACKGROUND, PATTERN_INK, type PatternPaintT } from "../document/common.ts";
import { parseHexColor } from "./color.ts";
import type { PaintBox } from "./paint.ts";

const DEFAULT_SIZE = 16;
const DEFAULT_THICKNESS = { dots: 0.5, stripes: 0.5, grid: 0.1, checks: 0.5 } as const;

/**
 * The shader of a built-in pattern paint: one tile recorded as a picture (vector drawing, so Skia
 * rasterises it at the device scale: crisp at every render scale) repeated across the plane, its
 * origin at the box's top-left corner plus `offset`, turned `angle` degrees about that origin. The
 * caller deletes it. The same CanvasKit draws it in Node and the browser.
 */
export function patternShader(ck: CanvasKit, value: PatternPaintT, path: string, box: PaintBox): Shader {
  const size = value.size ?? DEFAULT_SIZE;
  const thickness = (value.thickness ?? DEFAULT_THICKNESS[value.pattern]) * size;
  const ink = parseHexColor(value.color ?? PATTERN_INK, `${path}.color`);
  const background = parseHexColor(value.background ?? PATTERN_BACKGROUND, `${path}.background`);
  const tile = ck.LTRBRect(0, 0, size, size);
  const recorder = new ck.PictureRecorder();
  const canvas = recorder.beginRecording(tile);
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  paint.setColor(background);
  canvas.drawRect(tile, paint);
  paint.setColor(ink);
  if (value.pattern === "dots") {
    canvas.drawCircle(size / 2, size / 2, thickness / 2, paint);
  } else if (value.pattern === "stripes") {
    canvas.drawRect(ck.XYWHRect(0, (size - thickness) / 2, size, thickness), paint);
  } else if (value.pattern === "grid") {
    const lines = new ck.PathBuilder();
    lines.addRect(ck.XYWHRect(0, 0, size, thickness));
    lines.addRect(ck.XYWHRect(0, thickness, thickness, size - thickness));
    const outline = lines.detachAndDelete();
    canvas.drawPath(outline, paint);
    outline.delete();
  } else {
    const half = size / 2;
    canvas.drawRect(ck.XYWHRect(0, 0, half, half), paint);
    canvas.drawRect(ck.XYWHRect(half, half, half, half), paint);
  }
  paint.delete();
  const picture = recorder.finishRecordingAsPicture();
  recorder.delete();
  const originX = box.x + (value.offset?.x ?? 0);
  const originY = box.y + (value.offset?.y ?? 0);
  const angle = value.angle ?? 0;
  const matrix =
    angle === 0
      ? ck.Matrix.translated(originX, originY)
      : ck.Matrix.multiply(
          ck.Matrix.translated(originX, originY),
          ck.Matrix.rotated((angle * Math.PI) / 180),
        );
  const shader = picture.makeShader(
    ck.TileMode.Repeat,
    ck.TileMode.Repeat,
    ck.FilterMode.Linear,
    matrix,
    tile,
  );
  picture.delete();
  return shader;
}

/** Whether every pixel of the pattern is opaque: its background and its ink both are. */
export function isOpaquePattern(value: PatternPaintT, path: string): boolean {
  return (
    (parseHexColor(value.background ?? PATTERN_BACKGROUND, `${path}.background`)[3] ?? 0) === 1 &&
    (parseHexColor(value.color ?? PATTERN_INK, `${path}.color`)[3] ?? 0) === 1
  );
}

/** The pattern's most opaque colour's alpha. */
export function patternAlpha(value: PatternPaintT, path: string): number {
  return Math.max(
    parseHexColor(value.background ?? PATTERN_BACKGROUND, `${path}.background`)[3] ?? 0,
    parseHexColor(value.color ?? PATTERN_INK, `${path}.color`)[3] ?? 0,
  );
}
