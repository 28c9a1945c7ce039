import type { AnimationPreset } from "./preset.ts";

/** Fades the layer in (or out): its opacity multiplied by how far it has arrived. */
export const fade: AnimationPreset = {
  kinds: null,
  apply(layer, away) {
    layer.opacity = (layer.opacity ?? 1) * (1 - away);
  },
};
