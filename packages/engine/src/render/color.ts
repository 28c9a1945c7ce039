import { EngineError } from "./errors.ts";

const HEX = /^#([0-9A-Fa-f]{6})([0-9A-Fa-f]{2})?$/;

/** `#RRGGBB[AA]` -> CanvasKit colour (float RGBA, alpha 0..1). `path` names the value in errors. */
export function parseHexColor(hex: string, path: string): Float32Array {
  const match = HEX.exec(hex);
  if (!match?.[1]) {
    throw new EngineError("invalid_color", path, `must be #RRGGBB or #RRGGBBAA, got ${JSON.stringify(hex)}`);
  }
  const rgb = Number.parseInt(match[1], 16);
  const alpha = match[2] === undefined ? 255 : Number.parseInt(match[2], 16);
  return Float32Array.of(((rgb >> 16) & 255) / 255, ((rgb >> 8) & 255) / 255, (rgb & 255) / 255, alpha / 255);
}
