import { useEffect, useRef } from "react";
import { NumberField } from "../controls/fields.tsx";
import type { Layer } from "../engine/engine-types.ts";

interface Props {
  layers: readonly Layer[];
  /** Applies the patch to every selected layer, as one undo step per coalesce key. */
  onLayers(patch: Partial<Layer>, coalesceKey: string): void;
}

const MIXED = "Mixed";

/** The value every layer shares, or undefined when they differ (shown as "Mixed"). */
function shared<T>(layers: readonly Layer[], read: (l: Layer) => T): T | undefined {
  const first = layers[0];
  if (!first) return undefined;
  const v = read(first);
  return layers.every((l) => read(l) === v) ? v : undefined;
}

/**
 * The properties panel of a multi-selection: says how many layers are selected and edits what every
 * layer has (position, size, rotation, opacity, visibility) on all of them at once. A property the
 * layers do not share shows "Mixed"; typing a value there gives it to every one of them.
 */
export function MultiLayerForm({ layers, onLayers }: Props) {
  const visible = shared(layers, (l) => l.visible !== false);
  const check = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (check.current) check.current.indeterminate = visible === undefined;
  }, [visible]);
  const number = (
    label: string,
    key: "x" | "y" | "width" | "height" | "rotation" | "opacity",
    read: (l: Layer) => number,
    extra: { min?: number; max?: number; step?: number } = {},
  ) => (
    <NumberField
      label={label}
      testId={`multi-${key}`}
      value={shared(layers, read)}
      placeholder={MIXED}
      {...extra}
      onChange={(v) => v !== undefined && onLayers({ [key]: v } as Partial<Layer>, `multi-${key}`)}
    />
  );
  return (
    <div className="props" data-testid="multi-props">
      <section>
        <h3 data-testid="multi-count" aria-live="polite">
          {layers.length} layers selected
        </h3>
        <p className="muted small">Changes here apply to every selected layer.</p>
        <div className="grid2">
          {number("X", "x", (l) => l.x)}
          {number("Y", "y", (l) => l.y)}
          {number("W", "width", (l) => l.width, { min: 0 })}
          {number("H", "height", (l) => l.height, { min: 0 })}
          {number("Rotate °", "rotation", (l) => l.rotation ?? 0)}
          {number("Opacity", "opacity", (l) => l.opacity ?? 1, { min: 0, max: 1, step: 0.05 })}
        </div>
        <label className="check">
          <input
            ref={check}
            type="checkbox"
            data-testid="multi-visible"
            checked={visible === true}
            onChange={(e) => onLayers({ visible: e.target.checked }, "multi-visible")}
          />
          <span>Visible</span>
        </label>
      </section>
    </div>
  );
}
