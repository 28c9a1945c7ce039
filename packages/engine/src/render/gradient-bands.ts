import type { Canvas, CanvasKit, Paint } from "canvaskit-wasm";
import type { GradientT as Gradient, PaintT } from "../document/common.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";
import { applyPaint, linearEnds, type PaintBox, type PaintSource, radialGeometry } from "./paint.ts";

/**
 * Fills the canvas's current clip with a gradient drawn as bands of solid colour, one device pixel
 * wide along the gradient (merged where neighbours round to the same 8-bit colour): straight bands
 * for a linear gradient, rings for a radial one. Why: the engine's WebAssembly Skia shades a gradient
 * at about 30 ns a pixel (a 1200x630 background took 24 ms), while solid fills under an antialiased
 * clip run at about 1 ns a pixel. The caller clips to the geometry (antialiased), so its edges stay
 * smooth; bands are drawn without antialiasing, so neighbours meet without seams. Colours are
 * interpolated premultiplied, as CSS does.
 */
export function fillClipWithGradient(
  ck: CanvasKit,
  canvas: Canvas,
  paint: Paint,
  gradient: Gradient,
  path: string,
  box: PaintBox,
): void {
  const ramp = colorRamp(gradient, path);
  // Device pixels per template px (scale, group rotations and flips keep lengths: a similarity).
  const [a = 1, b = 0, , d = 0, e = 1] = canvas.getTotalMatrix();
  const density = Math.sqrt(Math.abs(a * e - b * d)) || 1;
  paint.setAntiAlias(false);
  paint.setStyle(ck.PaintStyle.Fill);
  paint.setShader(null);
  if (gradient.type === "linear") {
    const [start, end] = linearEnds(gradient.angle ?? 180, box);
    const dx = end[0] - start[0];
    const dy = end[1] - start[1];
    const length = Math.hypot(dx, dy);
    // Beyond the ends the end colours continue (clamp): the first and last bands reach far out.
    const far = Math.hypot(box.width, box.height) * 2 + length + 1;
    canvas.save();
    canvas.translate(start[0], start[1]);
    canvas.rotate((Math.atan2(dy, dx) * 180) / Math.PI, 0, 0);
    for (const band of bands(ramp, Math.max(1, Math.ceil(length * density)))) {
      paint.setColor(band.color);
      const from = band.from === 0 ? -far : band.from * length;
      const to = band.to === 1 ? far : band.to * length;
      canvas.drawRect(ck.LTRBRect(from, -far, to, far), paint);
    }
    canvas.restore();
  } else {
    const { cx, cy, rx, ry } = radialGeometry(gradient, box);
    // An ellipse is a circle of radius rx squeezed vertically about the centre.
    const radius = rx;
    const squeezed = rx !== ry;
    if (squeezed) {
      canvas.save();
      canvas.scale(1, ry / rx);
      canvas.translate(0, (cy * (rx - ry)) / ry);
    }
    // Each ring is a disc minus the one inside it; the last reaches far out, where the last colour
    // continues. Every pixel is drawn once: two draws under the antialiased clip would blend twice.
    const far = Math.hypot(box.width, box.height) * 2 + radius * 2;
    for (const ring of bands(ramp, Math.max(1, Math.ceil(Math.max(rx, ry) * density)))) {
      const builder = new ck.PathBuilder();
      if (ring.to === 1) builder.addRect(ck.LTRBRect(cx - far, cy - far, cx + far, cy + far));
      else builder.addCircle(cx, cy, ring.to * radius);
      if (ring.from > 0) builder.addCircle(cx, cy, ring.from * radius);
      builder.setFillType(ck.FillType.EvenOdd);
      const ringPath = builder.detachAndDelete();
      paint.setColor(ring.color);
      canvas.drawPath(ringPath, paint);
      ringPath.delete();
    }
    if (squeezed) canvas.restore();
  }
  paint.setAntiAlias(true);
}

interface Band {
  /** Start and end along the gradient, 0..1. */
  from: number;
  to: number;
  color: Float32Array;
}

/** `steps` bands of equal width, each in the colour at its middle, neighbours of one colour merged. */
function bands(ramp: (t: number) => Float32Array, steps: number): Band[] {
  const result: Band[] = [];
  let key = "";
  for (let i = 0; i < steps; i++) {
    const color = ramp((i + 0.5) / steps);
    const next = colorKey(color);
    const last = result.at(-1);
    if (last !== undefined && next === key) {
      last.to = (i + 1) / steps;
    } else {
      result.push({ from: i / steps, to: (i + 1) / steps, color });
      key = next;
    }
  }
  return result;
}

/**
 * The gradient as `steps` 8-bit premultiplied RGBA pixels, step i in the colour a band there has (at
 * its middle, (i + 0.5) / steps), rounded as Skia stores a solid colour.
 */
export function rampPixels(gradient: Gradient, path: string, steps: number): Uint8Array {
  const ramp = colorRamp(gradient, path);
  const out = new Uint8Array(steps * 4);
  for (let i = 0; i < steps; i++) {
    const [r = 0, g = 0, b = 0, a = 1] = ramp((i + 0.5) / steps);
    out[i * 4] = Math.round(r * a * 255);
    out[i * 4 + 1] = Math.round(g * a * 255);
    out[i * 4 + 2] = Math.round(b * a * 255);
    out[i * 4 + 3] = Math.round(a * 255);
  }
  return out;
}

/** The 8-bit premultiplied pixel a colour becomes: bands that would draw the same pixels merge. */
function colorKey(color: Float32Array): string {
  const alpha = color[3] ?? 1;
  const byte = (v: number | undefined) => Math.round((v ?? 0) * alpha * 255);
  return `${byte(color[0])},${byte(color[1])},${byte(color[2])},${Math.round(alpha * 255)}`;
}

/** The gradient's colour at t (0..1): stops interpolated premultiplied, returned unpremultiplied. */
function colorRamp(gradient: Gradient, path: string): (t: number) => Float32Array {
  const stops = gradient.stops.map((stop, i) => {
    const [r = 0, g = 0, b = 0, a = 1] = parseHexColor(stop.color, `${path}.stops[${i}].color`);
    return { offset: stop.offset, premul: [r * a, g * a, b * a, a] as const };
  });
  return (t) => {
    const after = stops.findIndex((stop) => stop.offset >= t);
    const upper = stops[after === -1 ? stops.length - 1 : after];
    const lower = stops[after <= 0 ? 0 : after - 1];
    if (upper === undefined || lower === undefined) return Float32Array.of(0, 0, 0, 0);
    const span = upper.offset - lower.offset;
    const f = span <= 0 || after === -1 ? (after === -1 ? 1 : 0) : (t - lower.offset) / span;
    const mix = (i: number) => (lower.premul[i] ?? 0) + ((upper.premul[i] ?? 0) - (lower.premul[i] ?? 0)) * f;
    const alpha = mix(3);
    if (alpha <= 0) return Float32Array.of(0, 0, 0, 0);
    return Float32Array.of(mix(0) / alpha, mix(1) / alpha, mix(2) / alpha, alpha);
  };
}

/**
 * Fills an area with a paint: a solid colour by `drawSolid` (with the shared paint set to it), a
 * gradient as bands inside `clip` (which clips the canvas to the same area, antialiased).
 */
export function fillArea(
  ctx: PaintContext,
  value: PaintT,
  path: string,
  box: PaintBox,
  area: { clip(): void; drawSolid(): void },
): void {
  const { ck, canvas, paint } = ctx;
  if (typeof value === "string") {
    paint.setStyle(ck.PaintStyle.Fill);
    paint.setColor(parseHexColor(value, path));
    area.drawSolid();
    return;
  }
  canvas.save();
  area.clip();
  fillClipWithPaint(ctx, canvas, paint, value, path, box);
  canvas.restore();
}

/**
 * Fills the canvas's current clip with a gradient (as bands: fillClipWithGradient) or a pattern
 * (through its shader).
 */
export function fillClipWithPaint(
  source: PaintSource,
  canvas: Canvas,
  paint: Paint,
  value: Exclude<PaintT, string>,
  path: string,
  box: PaintBox,
): void {
  const { ck } = source;
  if (value.type !== "pattern") {
    fillClipWithGradient(ck, canvas, paint, value, path, box);
    return;
  }
  paint.setAntiAlias(false);
  paint.setStyle(ck.PaintStyle.Fill);
  const release = applyPaint(source, paint, value, path, box);
  canvas.drawPaint(paint);
  release();
}
