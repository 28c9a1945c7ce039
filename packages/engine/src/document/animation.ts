import { type Static, Type as T, type TOptional } from "@sinclair/typebox";

/**
 * Motion (document v3, optional): a frame with a `duration` (seconds) is animated at `fps` frames a
 * second (default 30; `duration` x `fps` must be a whole number of frames). Its layers may carry
 * `animations` (enter and exit presets, animation/presets/) and `keyframes` on their numeric
 * properties. The document at a time t is a still document (animation/timeline.ts); a still render of
 * an animated frame draws its `poster` moment, by default the end of its last enter animation.
 */

/** The preset names; each has one file in animation/presets/, joined by its registry. */
export const ANIMATION_PRESETS = [
  "fade",
  "slide",
  "scale",
  "rotate",
  "blur",
  "typewriter",
  "count_up",
] as const;
export type AnimationPresetName = (typeof ANIMATION_PRESETS)[number];

/** The longest animated frame, in seconds. */
export const MAX_DURATION_SECONDS = 60;
/** The most frames a second. */
export const MAX_FPS = 60;
export const DEFAULT_FPS = 30;

/**
 * How progress runs from 0 to 1: CSS's named curves, a CSS `cubic-bezier(x1, y1, x2, y2)`, or a
 * damped spring (stiffness, damping, mass) settled to exactly 1 at the animation's end.
 */
export const Easing = T.Union([
  T.Literal("linear"),
  T.Literal("ease-in"),
  T.Literal("ease-out"),
  T.Literal("ease-in-out"),
  T.Object(
    {
      cubic_bezier: T.Tuple([
        T.Number({ minimum: 0, maximum: 1 }),
        T.Number({ minimum: -5, maximum: 5 }),
        T.Number({ minimum: 0, maximum: 1 }),
        T.Number({ minimum: -5, maximum: 5 }),
      ]),
    },
    { additionalProperties: false },
  ),
  T.Object(
    {
      spring: T.Object(
        {
          stiffness: T.Optional(T.Number({ minimum: 1, maximum: 1000, default: 100 })),
          damping: T.Optional(T.Number({ minimum: 0, maximum: 100, default: 10 })),
          mass: T.Optional(T.Number({ minimum: 0.1, maximum: 100, default: 1 })),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
]);

const Seconds = T.Number({ minimum: 0, maximum: MAX_DURATION_SECONDS });

/**
 * One enter or exit effect. `enter` (the default): before `start` the layer is fully away (faded
 * out, slid off, ...) and it arrives over `duration`; `exit`: it leaves from `start` over `duration`
 * and stays away after. `from` is the side a slide comes from (or leaves to); `distance` its length
 * in template px (default: from just outside the frame). `amount`: scale's starting factor (default
 * 0), rotate's turn in degrees (default 90), blur's radius in template px (default 20), count-up's
 * starting number (default 0).
 */
export const LayerAnimation = T.Object(
  {
    preset: T.Union(ANIMATION_PRESETS.map((name) => T.Literal(name))),
    phase: T.Optional(T.Union([T.Literal("enter"), T.Literal("exit")], { default: "enter" })),
    start: T.Optional(T.Number({ minimum: 0, maximum: MAX_DURATION_SECONDS, default: 0 })),
    duration: T.Number({ exclusiveMinimum: 0, maximum: MAX_DURATION_SECONDS }),
    easing: T.Optional(Easing),
    from: T.Optional(
      T.Union([T.Literal("left"), T.Literal("right"), T.Literal("top"), T.Literal("bottom")], {
        default: "left",
      }),
    ),
    distance: T.Optional(T.Number({ minimum: 0, maximum: 100_000 })),
    amount: T.Optional(T.Number({ minimum: -1_000_000_000, maximum: 1_000_000_000 })),
  },
  { additionalProperties: false },
);

/** A property's value at a time; the easing shapes the way from the previous keyframe to this one. */
export const Keyframe = T.Object(
  { time: Seconds, value: T.Number(), easing: T.Optional(Easing) },
  { additionalProperties: false },
);

const Track = T.Array(Keyframe, { minItems: 1, maxItems: 100 });

/** The numeric properties keyframes may drive; `scale` scales the box (and a text's font) about its centre. */
export const KEYFRAME_PROPERTIES = ["x", "y", "width", "height", "rotation", "opacity", "scale"] as const;
export type KeyframeProperty = (typeof KEYFRAME_PROPERTIES)[number];

export const Keyframes = T.Object(
  Object.fromEntries(KEYFRAME_PROPERTIES.map((name) => [name, T.Optional(Track)])) as Record<
    KeyframeProperty,
    TOptional<typeof Track>
  >,
  { additionalProperties: false },
);

/** The layer properties motion adds (spread into every layer kind with the common ones). */
export const layerMotion = {
  animations: T.Optional(T.Array(LayerAnimation, { maxItems: 20 })),
  keyframes: T.Optional(Keyframes),
};

/** The frame properties motion adds. */
export const frameMotion = {
  /** Seconds; makes the frame animated. */
  duration: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: MAX_DURATION_SECONDS })),
  fps: T.Optional(T.Integer({ minimum: 1, maximum: MAX_FPS, default: DEFAULT_FPS })),
  /** The moment (seconds) a still render draws; default the end of the last enter animation. */
  poster: T.Optional(Seconds),
};

export type EasingT = Static<typeof Easing>;
export type LayerAnimationT = Static<typeof LayerAnimation>;
export type KeyframeT = Static<typeof Keyframe>;
export type KeyframesT = Static<typeof Keyframes>;

/** A whole number of frames within floating-point noise: 2.5 s at 30 fps is 75 frames. */
export function frameCountOf(duration: number, fps: number): number | null {
  const frames = duration * fps;
  const whole = Math.round(frames);
  return Math.abs(frames - whole) < 1e-6 && whole >= 1 ? whole : null;
}
