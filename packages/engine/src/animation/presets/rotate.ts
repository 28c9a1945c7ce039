import type { AnimationPreset } from "./preset.ts";

/** Turns the layer in from `amount` degrees (default 90) away from its own rotation (or out to it). */
export const rotate: AnimationPreset = {
  kinds: null,
  apply(layer, away, animation) {
    layer.rotation = (layer.rotation ?? 0) + (animation.amount ?? 90) * away;
  },
};
