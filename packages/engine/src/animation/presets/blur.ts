import type { AnimationPreset } from "./preset.ts";

/** Brings the layer into focus from a blur of `amount` template px (default 20), or blurs it out. */
export const blur: AnimationPreset = {
  kinds: null,
  apply(layer, away, animation) {
    layer.blur = (layer.blur ?? 0) + Math.max(0, animation.amount ?? 20) * away;
  },
};
