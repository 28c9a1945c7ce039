import type { AnimationPreset } from "./preset.ts";

/**
 * Slides the layer in from a side (or out to it): by `distance` template px, or by default from just
 * outside the frame on that side (measured from the layer's own box in its parent's coordinates).
 */
export const slide: AnimationPreset = {
  kinds: null,
  apply(layer, away, animation, scene) {
    const side = animation.from ?? "left";
    const offFrame = {
      left: layer.x + layer.width,
      right: scene.frameWidth - layer.x,
      top: layer.y + layer.height,
      bottom: scene.frameHeight - layer.y,
    }[side];
    const distance = (animation.distance ?? offFrame) * away;
    if (side === "left") layer.x -= distance;
    else if (side === "right") layer.x += distance;
    else if (side === "top") layer.y -= distance;
    else layer.y += distance;
  },
};
