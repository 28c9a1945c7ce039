import type { LayerAnimationT } from "@pictor/engine";
import { EasingField } from "../controls/easing-field.tsx";
import { NumberField, SelectField } from "../controls/fields.tsx";
import type { FrameT, Layer } from "../engine/engine-types.ts";
import { KeyframeList } from "./keyframe-list.tsx";
import type { KindInfo, LayerPatch } from "./types.ts";

const MAX_ANIMATIONS = 20;
const SIDES = ["left", "right", "top", "bottom"] as const;

/** What a preset's `amount` means, for the presets that take one (its default in brackets). */
const AMOUNT_LABELS: Readonly<Record<string, string>> = {
  scale: "Start scale (0)",
  rotate: "Turn ° (90)",
  blur: "Blur px (20)",
  count_up: "Count from (0)",
};

interface Props {
  layer: Layer;
  /** The top-level frame the layer is in: its duration bounds every time. */
  frame: FrameT;
  onLayer: LayerPatch;
  kinds: KindInfo;
}

/**
 * A layer's motion in an animated frame: its enter and exit presets (preset, start, duration,
 * easing, and the preset's side or amount) and its keyframes. Shown only when the frame has a
 * duration, as the document allows motion nowhere else.
 */
export function MotionForm({ layer, frame, onLayer, kinds }: Props) {
  if (frame.duration === undefined) return null;
  const duration = frame.duration;
  const animations = layer.animations ?? [];
  const presets = Object.entries(kinds.animationPresets)
    .filter(([, types]) => types === null || types.includes(layer.type))
    .map(([name]) => name as LayerAnimationT["preset"]);
  const commit = (next: LayerAnimationT[], key: string) =>
    onLayer({ animations: next.length > 0 ? next : undefined }, key);
  const set = (index: number, patch: Partial<LayerAnimationT>, key: string) =>
    commit(
      animations.map((a, i) => (i === index ? withoutUndefined({ ...a, ...patch }) : a)),
      `anim-${index}-${key}`,
    );
  const add = (phase: "enter" | "exit") => {
    const length = Math.min(0.5, duration);
    const start = phase === "enter" ? 0 : Math.max(0, duration - length);
    const added: LayerAnimationT = {
      preset: "fade",
      ...(phase === "exit" ? { phase } : {}),
      start,
      duration: length,
    };
    commit([...animations, added], `anim-add-${animations.length}`);
  };
  return (
    <section className="motion-list" data-testid="motion">
      <h3>Animation</h3>
      <div className="row spread">
        <button
          type="button"
          className="btn small"
          data-testid="anim-add-enter"
          disabled={animations.length >= MAX_ANIMATIONS}
          onClick={() => add("enter")}
        >
          + Enter
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="anim-add-exit"
          disabled={animations.length >= MAX_ANIMATIONS}
          onClick={() => add("exit")}
        >
          + Exit
        </button>
      </div>
      {animations.map((a, i) => {
        const phase = a.phase ?? "enter";
        const name = `Animation ${i + 1}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: animations are identified by their position
          <fieldset key={i} data-testid={`anim-${i}`}>
            <legend>
              {name}: {phase}
            </legend>
            <div className="grid2">
              <SelectField
                label="Phase"
                testId={`anim-${i}-phase`}
                value={phase}
                options={["enter", "exit"] as const}
                onChange={(next) => set(i, { phase: next === "enter" ? undefined : next }, "phase")}
              />
              <SelectField
                label="Effect"
                testId={`anim-${i}-preset`}
                value={a.preset}
                options={presets.includes(a.preset) ? presets : [a.preset, ...presets]}
                onChange={(preset) =>
                  set(i, { preset, amount: undefined, from: undefined, distance: undefined }, "preset")
                }
              />
              <NumberField
                label="Start (s)"
                testId={`anim-${i}-start`}
                value={a.start ?? 0}
                min={0}
                max={duration}
                step={0.05}
                onChange={(start) => start !== undefined && set(i, { start }, "start")}
              />
              <NumberField
                label="Duration (s)"
                testId={`anim-${i}-duration`}
                value={a.duration}
                min={0.01}
                max={duration}
                step={0.05}
                onChange={(length) => length !== undefined && set(i, { duration: length }, "duration")}
              />
            </div>
            <EasingField
              label="Easing"
              testId={`anim-${i}-easing`}
              value={a.easing}
              fallback={phase === "enter" ? "ease-out" : "ease-in"}
              onChange={(easing) => set(i, { easing }, "easing")}
            />
            {a.preset === "slide" && (
              <div className="grid2">
                <SelectField
                  label={phase === "enter" ? "From" : "To"}
                  testId={`anim-${i}-from`}
                  value={a.from ?? "left"}
                  options={SIDES}
                  onChange={(from) => set(i, { from }, "from")}
                />
                <NumberField
                  label="Distance px"
                  testId={`anim-${i}-distance`}
                  value={a.distance}
                  min={0}
                  max={100_000}
                  optional
                  placeholder="off frame"
                  onChange={(distance) => set(i, { distance }, "distance")}
                />
              </div>
            )}
            {AMOUNT_LABELS[a.preset] !== undefined && (
              <NumberField
                label={AMOUNT_LABELS[a.preset] as string}
                testId={`anim-${i}-amount`}
                value={a.amount}
                optional
                onChange={(amount) => set(i, { amount }, "amount")}
              />
            )}
            <button
              type="button"
              className="btn small ghost danger"
              data-testid={`anim-${i}-remove`}
              onClick={() =>
                commit(
                  animations.filter((_, j) => j !== i),
                  `anim-remove-${i}`,
                )
              }
            >
              Remove {name.toLowerCase()}
            </button>
          </fieldset>
        );
      })}
      <KeyframeList layer={layer} duration={duration} onLayer={onLayer} kinds={kinds} />
    </section>
  );
}

/** The animation without the optional fields an edit emptied (the document has no `undefined`). */
function withoutUndefined(animation: LayerAnimationT): LayerAnimationT {
  const next = { ...animation } as Record<string, unknown>;
  for (const [key, value] of Object.entries(next)) if (value === undefined) delete next[key];
  return next as LayerAnimationT;
}
