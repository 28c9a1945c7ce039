import type { AnimationPreset } from "./preset.ts";

/**
 * Counts a text layer bound to a number slot up from `amount` (default 0) to the slot's value (or
 * down to it as an exit), shown in the layer's own number format; each moment's number is rounded to
 * the decimals of the value. The layer gets a slot of its own for the moment, so other layers bound
 * to the same slot show the value itself.
 */
export const countUp: AnimationPreset = {
  kinds: ["text"],
  apply(layer, away, animation, scene) {
    const slot = scene.boundSlot(layer, "text");
    if (slot === null || slot.type !== "number") return;
    const value = scene.valueOf(slot.name);
    if (typeof value !== "number") return;
    const from = animation.amount ?? 0;
    const decimals = decimalsOf(value);
    const raw = value + (from - value) * away;
    const shown = Number(raw.toFixed(decimals));
    const { min: _min, max: _max, ...unbounded } = slot;
    layer.bind = { ...layer.bind, text: scene.addSlot(unbounded, shown) };
  },
};

function decimalsOf(value: number): number {
  const text = String(value);
  const dot = text.indexOf(".");
  return dot < 0 || text.includes("e") ? 0 : Math.min(10, text.length - dot - 1);
}
