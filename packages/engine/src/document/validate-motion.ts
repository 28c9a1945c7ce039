import { ANIMATION_PRESET_TABLE } from "../animation/presets/registry.ts";
import { DEFAULT_FPS, frameCountOf, KEYFRAME_PROPERTIES } from "./animation.ts";
import type { Layer, TemplateDocumentT } from "./schema.ts";
import type { ValidationError } from "./validate-paths.ts";

/**
 * Motion's rules beyond the schema: an animated frame lasts a whole number of frames and its poster
 * lies within it; only animated frames' layers carry animations or keyframes; a preset applies to
 * the layer's type (count-up to a text bound to a number slot); keyframe times ascend.
 */
export function motionErrors(doc: TemplateDocumentT): ValidationError[] {
  const errors: ValidationError[] = [];
  const slots = new Map(doc.slots.map((slot) => [slot.name, slot]));
  doc.frames.forEach((frame, f) => {
    const path = `frames[${f}]`;
    const animated = frame.duration !== undefined;
    if (animated) {
      const fps = frame.fps ?? DEFAULT_FPS;
      if (frameCountOf(frame.duration as number, fps) === null) {
        errors.push({
          path: `${path}.duration`,
          message: `duration x fps must be a whole number of frames (${frame.duration} s at ${fps} fps is ${(frame.duration as number) * fps})`,
        });
      }
      if (frame.poster !== undefined && frame.poster > (frame.duration as number)) {
        errors.push({ path: `${path}.poster`, message: "must lie within the frame's duration" });
      }
    } else {
      for (const field of ["fps", "poster"] as const) {
        if (frame[field] !== undefined) {
          errors.push({
            path: `${path}.${field}`,
            message: "needs the frame's duration (an animated frame)",
          });
        }
      }
    }
    const visit = (layers: readonly Layer[], at: string) => {
      layers.forEach((layer, i) => {
        const layerPath = `${at}[${i}]`;
        const moves = layer.animations !== undefined || layer.keyframes !== undefined;
        if (moves && !animated) {
          errors.push({
            path: layerPath,
            message: "animations and keyframes need an animated frame (give the frame a duration)",
          });
        }
        (layer.animations ?? []).forEach((animation, a) => {
          const kinds = ANIMATION_PRESET_TABLE[animation.preset].kinds;
          const animationPath = `${layerPath}.animations[${a}]`;
          if (kinds !== null && !kinds.includes(layer.type)) {
            errors.push({
              path: `${animationPath}.preset`,
              message: `${animation.preset} applies to ${kinds.join(", ")} layers, not ${layer.type}`,
            });
          }
          if (animation.preset === "count_up") {
            const bound = layer.bind?.text;
            if (bound === undefined || slots.get(bound)?.type !== "number") {
              errors.push({
                path: `${animationPath}.preset`,
                message: "count_up needs the text bound to a number slot",
              });
            }
          }
        });
        for (const property of KEYFRAME_PROPERTIES) {
          const track = layer.keyframes?.[property] ?? [];
          track.forEach((key, k) => {
            const previous = track[k - 1];
            if (previous !== undefined && key.time <= previous.time) {
              errors.push({
                path: `${layerPath}.keyframes.${property}[${k}].time`,
                message: "keyframe times must ascend",
              });
            }
          });
        }
        const children = (layer as { layers?: unknown }).layers;
        if (Array.isArray(children)) visit(children as Layer[], `${layerPath}.layers`);
      });
    };
    visit(frame.layers, `${path}.layers`);
  });
  return errors;
}
