import type { PaintT, SlotT } from "../../engine/engine-types.ts";
import { CheckField, NumberField, SelectField } from "../fields.tsx";
import type { Rebind } from "./gradient.tsx";
import { PaintEditor } from "./paint.tsx";

/** The stroke shapes of document v2 share: a paint and a width, with an alignment on outlines. */
export interface StrokeLike {
  color: PaintT;
  width: number;
  align?: "inside" | "center" | "outside";
}

interface Props<S extends StrokeLike> {
  label: string;
  /** Property of the layer (`stroke`, `highlight`…): bindings are `<prop>.color`. */
  prop: string;
  value: S | null | undefined;
  /** Offer an on/off checkbox (the property is optional). */
  optional?: boolean;
  /** Offer the alignment select (outline strokes of polygons, stars and paths), with the kind's default. */
  aligns?: NonNullable<StrokeLike["align"]>;
  /** The stroke created when switched on. */
  initial: S;
  maxWidth?: number;
  slots: readonly SlotT[];
  bind: Record<string, string> | undefined;
  /** null: switched off (the property is removed). */
  onChange(value: S | null, rebind?: Rebind): void;
  onBind(bind: Record<string, string> | undefined): void;
}

/** Bindings without `<prop>.color` and its stops (the property is gone). */
function withoutBindingsOf(bind: Record<string, string> | undefined, prop: string) {
  if (!bind) return bind;
  const out = Object.fromEntries(Object.entries(bind).filter(([p]) => !p.startsWith(`${prop}.color`)));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A stroke (or a text highlight: any `{color, width}`): on/off, paint, width, alignment. */
export function StrokeEditor<S extends StrokeLike>(props: Props<S>) {
  const { label, prop, value, optional, aligns, initial, maxWidth, slots, bind, onChange, onBind } = props;
  return (
    <div className="stroke-editor" data-testid={`${prop}-editor`}>
      {optional && (
        <CheckField
          label={label}
          testId={`${prop}-on`}
          value={Boolean(value)}
          onChange={(on) =>
            onChange(on ? initial : null, on ? undefined : { bind: withoutBindingsOf(bind, prop) })
          }
        />
      )}
      {value && (
        <>
          <PaintEditor
            label={`${label} colour`}
            testId={`prop-${prop}.color`}
            value={value.color}
            onChange={(color, rebind) => color !== null && onChange({ ...value, color }, rebind)}
            bindProp={`${prop}.color`}
            slots={slots}
            bind={bind}
            onBind={onBind}
          />
          <div className="grid2">
            <NumberField
              label={`${label} width`}
              testId={`prop-${prop}.width`}
              value={value.width}
              min={0.1}
              max={maxWidth ?? 1000}
              onChange={(width) => width !== undefined && onChange({ ...value, width })}
            />
            {aligns && (
              <SelectField
                label="Align"
                testId={`prop-${prop}.align`}
                value={value.align ?? aligns}
                options={["inside", "center", "outside"] as const}
                onChange={(align) => onChange({ ...value, align })}
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}
