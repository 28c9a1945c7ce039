import { scaleAboutCentre } from "../scale-layer.ts";
import type { AnimationPreset } from "./preset.ts";

/** Grows the layer from `amount` (default 0) of its size to its size, about its centre (or back). */
export const scale: AnimationPreset = {
  kinds: null,
  apply(layer, away, animation) {
    const from = animation.amount ?? 0;
    scaleAboutCentre(layer, from + (1 - from) * (1 - away));
  },
};
