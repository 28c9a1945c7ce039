import type { AnimationPresetName } from "../../document/animation.ts";
import { blur } from "./blur.ts";
import { countUp } from "./count-up.ts";
import { fade } from "./fade.ts";
import type { AnimationPreset } from "./preset.ts";
import { rotate } from "./rotate.ts";
import { scale } from "./scale.ts";
import { slide } from "./slide.ts";
import { typewriter } from "./typewriter.ts";

/** Every preset by name: a name in ANIMATION_PRESETS without its file here does not compile. */
export const ANIMATION_PRESET_TABLE: Readonly<Record<AnimationPresetName, AnimationPreset>> = {
  fade,
  slide,
  scale,
  rotate,
  blur,
  typewriter,
  count_up: countUp,
};

/** The layer types each preset applies to (null: every type), for the editor's preset choices. */
export const ANIMATION_PRESET_KINDS = Object.fromEntries(
  Object.entries(ANIMATION_PRESET_TABLE).map(([name, preset]) => [name, preset.kinds]),
) as Readonly<Record<AnimationPresetName, readonly string[] | null>>;
