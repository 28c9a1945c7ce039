import type { SlotValue, SlotValues } from "../api.ts";
import {
  DEFAULT_FPS,
  frameCountOf,
  type KeyframeProperty,
  type KeyframesT,
  type KeyframeT,
  type LayerAnimationT,
} from "../document/animation.ts";
import { inlineStyleNames } from "../document/inline-styles.ts";
import type { FrameT, Layer, SlotT, TemplateDocumentT } from "../document/schema.ts";
import { ease } from "./easing.ts";
import type { MotionLayer, MotionScene } from "./presets/preset.ts";
import { ANIMATION_PRESET_TABLE } from "./presets/registry.ts";
import { scaleAboutCentre } from "./scale-layer.ts";

/** A document and slot values as they stand at one moment of an animated frame: a still to draw. */
export interface Moment {
  document: TemplateDocumentT;
  values: SlotValues;
}

/** Whether a frame moves (it has a duration). */
export function isAnimatedFrame(frame: Pick<FrameT, "duration">): boolean {
  return frame.duration !== undefined;
}

/** How many frames an animated frame has (duration x fps), or null when that is not a whole number. */
export function frameCount(frame: Pick<FrameT, "duration" | "fps">): number | null {
  return frame.duration === undefined ? null : frameCountOf(frame.duration, frame.fps ?? DEFAULT_FPS);
}

/** The moments (seconds) each output frame shows: i / fps for every frame i. */
export function frameTimes(frame: Pick<FrameT, "duration" | "fps">): number[] {
  const count = frameCount(frame) ?? 0;
  const fps = frame.fps ?? DEFAULT_FPS;
  return Array.from({ length: count }, (_, i) => i / fps);
}

/**
 * The moment a still render of an animated frame draws: its `poster`, else the end of its last enter
 * animation (every layer arrived), else 0.
 */
export function posterTime(frame: FrameT): number {
  if (frame.poster !== undefined) return frame.poster;
  let end = 0;
  const visit = (layers: readonly Layer[]) => {
    for (const layer of layers) {
      for (const animation of layer.animations ?? []) {
        if ((animation.phase ?? "enter") === "enter") {
          end = Math.max(end, (animation.start ?? 0) + animation.duration);
        }
      }
      const children = (layer as { layers?: unknown }).layers;
      if (Array.isArray(children)) visit(children as Layer[]);
    }
  };
  visit(frame.layers);
  return Math.min(end, frame.duration ?? end);
}

/**
 * The still document of a frame at `time` seconds (default its poster moment): every layer's
 * keyframes and enter/exit effects applied to a copy of it. Pure: the input is never changed, and a
 * frame that does not move (or a frame name the document lacks) is returned as the same objects.
 */
export function documentAt(
  document: TemplateDocumentT,
  frameName: string | undefined,
  time: number | undefined,
  values: SlotValues,
): Moment {
  const index = frameName === undefined ? 0 : document.frames.findIndex((f) => f.name === frameName);
  const frame = document.frames[index];
  if (frame === undefined || !isAnimatedFrame(frame)) return { document, values };
  const t = time ?? posterTime(frame);
  const slots = new Map<string, SlotT>(document.slots.map((slot) => [slot.name, slot]));
  const added: SlotT[] = [];
  let momentValues: Record<string, SlotValue> | null = null;
  const scene: MotionScene = {
    frameWidth: frame.width,
    frameHeight: frame.height,
    inlineStyles: inlineStyleNames(document),
    boundSlot(layer, property) {
      const name = layer.bind?.[property];
      return name === undefined ? null : (slots.get(name) ?? null);
    },
    valueOf(name) {
      return values[name] ?? slots.get(name)?.default;
    },
    addSlot(slot, value) {
      let n = added.length;
      while (slots.has(`_motion_${n}`)) n++;
      const name = `_motion_${n}`;
      const own = { ...slot, name } as SlotT;
      slots.set(name, own);
      added.push(own);
      momentValues ??= { ...values };
      momentValues[name] = value;
      return name;
    },
  };
  const layers = layersAt(frame.layers, t, scene);
  if (layers === frame.layers) return { document, values };
  const frames = document.frames.map((f, i) => (i === index ? { ...frame, layers } : f));
  return {
    document: { ...document, slots: [...document.slots, ...added], frames },
    values: momentValues ?? values,
  };
}

/** The layers at `t`; the same array when none of them moves. */
function layersAt(layers: readonly Layer[], t: number, scene: MotionScene): Layer[] {
  let changed = false;
  const out = layers.map((layer) => {
    const moved = layerAt(layer, t, scene);
    if (moved !== layer) changed = true;
    return moved;
  });
  return changed ? out : (layers as Layer[]);
}

function layerAt(layer: Layer, t: number, scene: MotionScene): Layer {
  const children = (layer as { layers?: unknown }).layers;
  const movedChildren = Array.isArray(children) ? layersAt(children as Layer[], t, scene) : null;
  const effects = (layer.animations ?? []).map((animation) => ({ animation, away: awayAt(animation, t) }));
  const moving = layer.keyframes !== undefined || effects.some((e) => e.away > 0);
  if (!moving && movedChildren === children) return layer;
  const copy = { ...layer } as unknown as MotionLayer;
  if (movedChildren !== null) copy.layers = movedChildren;
  if (layer.keyframes !== undefined) applyKeyframes(copy, layer.keyframes, t);
  for (const { animation, away } of effects) {
    if (away > 0) ANIMATION_PRESET_TABLE[animation.preset].apply(copy, away, animation, scene);
  }
  return copy as unknown as Layer;
}

/** 0: the layer as designed; 1: fully away (before an enter, after an exit). */
function awayAt(animation: LayerAnimationT, t: number): number {
  const start = animation.start ?? 0;
  const progress = (t - start) / animation.duration;
  if ((animation.phase ?? "enter") === "enter") return 1 - ease(animation.easing, progress, "ease-out");
  return ease(animation.easing, progress, "ease-in");
}

function applyKeyframes(layer: MotionLayer, keyframes: KeyframesT, t: number): void {
  const at = (property: KeyframeProperty) => {
    const track = keyframes[property];
    return track === undefined ? undefined : trackValue(track, t);
  };
  const x = at("x");
  if (x !== undefined) layer.x = x;
  const y = at("y");
  if (y !== undefined) layer.y = y;
  const width = at("width");
  if (width !== undefined) layer.width = Math.max(0, width);
  const height = at("height");
  if (height !== undefined) layer.height = Math.max(0, height);
  const rotation = at("rotation");
  if (rotation !== undefined) layer.rotation = rotation;
  const opacity = at("opacity");
  if (opacity !== undefined) layer.opacity = Math.min(1, Math.max(0, opacity));
  const factor = at("scale");
  if (factor !== undefined) scaleAboutCentre(layer, factor);
}

/** A track's value at `t`: held before its first keyframe and after its last, eased in between. */
export function trackValue(track: readonly KeyframeT[], t: number): number {
  const first = track[0] as KeyframeT;
  if (t <= first.time) return first.value;
  for (let i = 1; i < track.length; i++) {
    const to = track[i] as KeyframeT;
    if (t < to.time) {
      const from = track[i - 1] as KeyframeT;
      const p = (t - from.time) / (to.time - from.time);
      return from.value + (to.value - from.value) * ease(to.easing, p);
    }
  }
  return (track[track.length - 1] as KeyframeT).value;
}
