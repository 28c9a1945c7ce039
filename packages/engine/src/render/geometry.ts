import type { FrameT, TemplateDocumentT } from "../document/schema.ts";
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
