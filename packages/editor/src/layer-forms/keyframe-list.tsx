import type { KeyframeT } from "@pictor/engine";
import { useState } from "react";
import { EasingField } from "../controls/easing-field.tsx";
import { NumberField, SelectField } from "../controls/fields.tsx";
import type { Layer } from "../engine/engine-types.ts";
import type { KindInfo, LayerPatch } from "./types.ts";

type Keyframes = NonNullable<Layer["keyframes"]>;
type Property = keyof Keyframes;

const MAX_KEYS = 100;

/** The property's value as the layer is designed: where a new track starts. */
function designValue(layer: Layer, property: Property): number {
  if (property === "scale") return 1;
  if (property === "opacity") return layer.opacity ?? 1;
  if (property === "rotation") return layer.rotation ?? 0;
  return layer[property];
}

interface Props {
  layer: Layer;
  /** The frame's duration, seconds: the latest time a key may have. */
  duration: number;
  onLayer: LayerPatch;
  kinds: KindInfo;
}

/**
 * The layer's keyframes as a list per property: each key's time, value and the easing that leads to
 * it from the key before. A new key goes half a second after the last (within the frame) with the
 * last key's value; times must ascend, which the document's validation says when they do not.
 */
export function KeyframeList({ layer, duration, onLayer, kinds }: Props) {
  const keyframes: Keyframes = layer.keyframes ?? {};
  const properties = kinds.keyframeProperties as readonly Property[];
  const unused = properties.filter((p) => keyframes[p] === undefined);
  const [adding, setAdding] = useState<Property | "">("");
  const choice = adding !== "" && unused.includes(adding) ? adding : (unused[0] ?? "");
  const commit = (property: Property, track: KeyframeT[] | undefined, key: string) => {
    const next: Keyframes = { ...keyframes, [property]: track };
    if (track === undefined) delete next[property];
    onLayer({ keyframes: Object.keys(next).length > 0 ? next : undefined }, `kf-${property}-${key}`);
  };
  return (
    <div data-testid="keyframes">
      <span className="subhead">Keyframes</span>
      {properties.map((property) => {
        const track = keyframes[property];
        if (track === undefined) return null;
        const setKey = (k: number, patch: Partial<KeyframeT>, key: string) =>
          commit(
            property,
            track.map((frame, j) => {
              if (j !== k) return frame;
              const next = { ...frame, ...patch };
              if (next.easing === undefined) delete next.easing;
              return next;
            }),
            `${k}-${key}`,
          );
        return (
          <fieldset key={property} data-testid={`kf-${property}`}>
            <legend>{property}</legend>
            {track.map((frame, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: keys are identified by their position
              <div key={k} data-testid={`kf-${property}-${k}`}>
                <div className="grid3">
                  <NumberField
                    label={`${property} key ${k + 1} time (s)`}
                    testId={`kf-${property}-${k}-time`}
                    value={frame.time}
                    min={0}
                    max={duration}
                    step={0.05}
                    onChange={(time) => time !== undefined && setKey(k, { time }, "time")}
                  />
                  <NumberField
                    label={`${property} key ${k + 1} value`}
                    testId={`kf-${property}-${k}-value`}
                    value={frame.value}
                    onChange={(value) => value !== undefined && setKey(k, { value }, "value")}
                  />
                  <button
                    type="button"
                    className="btn small ghost danger"
                    data-testid={`kf-${property}-${k}-remove`}
                    onClick={() => {
                      const rest = track.filter((_, j) => j !== k);
                      commit(property, rest.length > 0 ? rest : undefined, `remove-${k}`);
                    }}
                  >
                    Remove {property} key {k + 1}
                  </button>
                </div>
                {k > 0 && (
                  <EasingField
                    label={`${property} key ${k + 1} easing`}
                    testId={`kf-${property}-${k}-easing`}
                    value={frame.easing}
                    fallback="linear"
                    onChange={(easing) => setKey(k, { easing }, "easing")}
                  />
                )}
              </div>
            ))}
            <button
              type="button"
              className="btn small"
              data-testid={`kf-${property}-add`}
              disabled={track.length >= MAX_KEYS}
              onClick={() => {
                const last = track[track.length - 1] as KeyframeT;
                const time = Math.min(duration, Math.round((last.time + 0.5) * 100) / 100);
                commit(property, [...track, { time, value: last.value }], `add-${track.length}`);
              }}
            >
              + {property} key
            </button>
          </fieldset>
        );
      })}
      {unused.length > 0 && (
        <div className="row spread">
          <SelectField<Property>
            label="Property"
            testId="kf-property"
            value={choice as Property}
            options={unused}
            onChange={setAdding}
          />
          <button
            type="button"
            className="btn small"
            data-testid="kf-add-track"
            onClick={() => {
              if (choice === "") return;
              commit(choice, [{ time: 0, value: designValue(layer, choice) }], "track");
              setAdding("");
            }}
          >
            + Keyframes
          </button>
        </div>
      )}
    </div>
  );
}
