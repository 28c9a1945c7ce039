import type { DropShadowT } from "../../engine/engine-types.ts";
import { ColorField, NumberField } from "../fields.tsx";

const NEW_SHADOW: DropShadowT = { x: 0, y: 8, blur: 16, color: "#00000040" };
const MAX_SHADOWS = 8;

interface Props {
  value: readonly DropShadowT[] | undefined;
  /** undefined: no shadows (the property is removed). */
  onChange(value: DropShadowT[] | undefined): void;
}

/** A layer's drop shadows, first one lowest: add, edit (offset, blur, colour) and remove each. */
export function ShadowList({ value, onChange }: Props) {
  const shadows = value ?? [];
  const set = (index: number, patch: Partial<DropShadowT>) =>
    onChange(shadows.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <div className="shadow-list" data-testid="shadows">
      <div className="row spread">
        <span className="subhead">Shadows</span>
        <button
          type="button"
          className="btn small"
          data-testid="shadow-add"
          disabled={shadows.length >= MAX_SHADOWS}
          onClick={() => onChange([...shadows, NEW_SHADOW])}
        >
          + Add shadow
        </button>
      </div>
      {shadows.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: shadows are identified by their position
        <fieldset key={i} className="shadow" data-testid={`shadow-${i}`}>
          <legend>Shadow {i + 1}</legend>
          <div className="grid3">
            <NumberField
              label="X"
              testId={`shadow-${i}-x`}
              value={s.x}
              min={-1000}
              max={1000}
              onChange={(x) => x !== undefined && set(i, { x })}
            />
            <NumberField
              label="Y"
              testId={`shadow-${i}-y`}
              value={s.y}
              min={-1000}
              max={1000}
              onChange={(y) => y !== undefined && set(i, { y })}
            />
            <NumberField
              label="Blur"
              testId={`shadow-${i}-blur`}
              value={s.blur}
              min={0}
              max={500}
              onChange={(blur) => blur !== undefined && set(i, { blur })}
            />
          </div>
          <ColorField
            label={`Shadow ${i + 1} colour`}
            testId={`shadow-${i}-color`}
            value={s.color}
            onChange={(color) => color && set(i, { color })}
          />
          <button
            type="button"
            className="btn small ghost danger"
            data-testid={`shadow-${i}-remove`}
            onClick={() => {
              const rest = shadows.filter((_, j) => j !== i);
              onChange(rest.length > 0 ? rest : undefined);
            }}
          >
            Remove shadow {i + 1}
          </button>
        </fieldset>
      ))}
    </div>
  );
}
