import type { PaintT, SlotT } from "../../engine/engine-types.ts";
import { BindSelect } from "../BindSelect.tsx";
import { ColorField } from "../fields.tsx";
import { GradientEditor, type GradientT, type Rebind } from "./gradient.tsx";
import { ImagePatternEditor } from "./image-pattern.tsx";
import { PatternEditor } from "./pattern.tsx";

type Mode = "none" | "solid" | "linear" | "radial" | "pattern" | "image";

export interface PaintEditorProps {
  label: string;
  testId: string;
  value: PaintT | null | undefined;
  /** Offer "none" (the property may be null or absent). */
  nullable?: boolean;
  /** `rebind`: the layer's bindings change in the same edit (stop bindings follow their stops). */
  onChange(value: PaintT | null, rebind?: Rebind): void;
  /** Property path for bindings (`fill`, `stroke.color`): a slot picker for it and for each stop. */
  bindProp?: string;
  slots?: readonly SlotT[];
  bind?: Record<string, string>;
  onBind?(bind: Record<string, string> | undefined): void;
}

function modeOf(value: PaintT | null | undefined): Mode {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return "solid";
  return "image" in value ? "image" : value.type;
}

/** The first colour of a paint, to keep when switching between a colour and a gradient. */
function firstColor(value: PaintT | null | undefined): string {
  if (typeof value === "string") return value;
  if (value !== null && value !== undefined && "image" in value) return "#000000";
  if (value?.type === "pattern") return value.color ?? "#000000";
  return value?.stops[0]?.color ?? "#6366F1";
}

/** Bindings without the stop colours of `prop` (its paint is no longer a gradient). */
function withoutStopBindings(bind: Record<string, string> | undefined, prop: string) {
  if (!bind) return bind;
  const out = Object.fromEntries(Object.entries(bind).filter(([p]) => !p.startsWith(`${prop}.stops[`)));
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Any paint property: none, a solid colour, a linear or a radial gradient, a built-in pattern. The
 * kind is a select; the colour is a colour field, a gradient the gradient editor, a pattern the
 * pattern editor.
 */
export function PaintEditor(props: PaintEditorProps) {
  const { label, testId, value, nullable, onChange, bindProp, slots, bind, onBind } = props;
  const mode = modeOf(value);
  const switchTo = (next: Mode) => {
    if (next === mode) return;
    const color = firstColor(value);
    const rebind = bindProp ? { bind: withoutStopBindings(bind, bindProp) } : undefined;
    if (next === "none") return onChange(null, rebind);
    if (next === "solid") return onChange(color, rebind);
    if (next === "pattern") {
      return onChange({ type: "pattern", pattern: "dots", color, background: "#FFFFFF", size: 16 }, rebind);
    }
    if (next === "image") {
      const image = typeof value === "object" && value !== null && "image" in value ? value.image : "";
      return onChange({ type: "pattern", image: image || "https://", size: 64 }, rebind);
    }
    const stops =
      typeof value === "object" && value !== null && value.type !== "pattern"
        ? value.stops
        : [
            { offset: 0, color },
            { offset: 1, color: "#FFFFFF" },
          ];
    const gradient: GradientT =
      next === "linear" ? { type: "linear", angle: 90, stops } : { type: "radial", stops };
    onChange(gradient);
  };
  const kindSelect = (
    <select
      className="paint-kind"
      aria-label={`${label}: colour or gradient`}
      data-testid={`${testId}-kind`}
      value={mode}
      onChange={(e) => switchTo(e.target.value as Mode)}
    >
      {nullable && <option value="none">None</option>}
      <option value="solid">Colour</option>
      <option value="linear">Linear gradient</option>
      <option value="radial">Radial gradient</option>
      <option value="pattern">Pattern</option>
      <option value="image">Image pattern</option>
    </select>
  );
  return (
    <div className="paint-editor" data-testid={`${testId}-paint`} data-paint={mode}>
      {typeof value === "string" ? (
        <ColorField
          label={label}
          testId={testId}
          value={value}
          before={kindSelect}
          onChange={(c) => c && onChange(c)}
        />
      ) : (
        <div className="field compact">
          <span>{label}</span>
          <div className="color-row">{kindSelect}</div>
        </div>
      )}
      {typeof value === "object" && value !== null && "image" in value && (
        <ImagePatternEditor label={label} testId={testId} value={value} onChange={onChange} />
      )}
      {typeof value === "object" && value !== null && value.type === "pattern" && "pattern" in value && (
        <PatternEditor label={label} testId={testId} value={value} onChange={onChange} />
      )}
      {typeof value === "object" && value !== null && value.type !== "pattern" && (
        <GradientEditor
          label={label}
          testId={testId}
          value={value}
          onChange={onChange}
          bindProp={bindProp}
          slots={slots}
          bind={bind}
          onBind={onBind}
        />
      )}
      {bindProp && slots && onBind && (
        <BindSelect
          prop={bindProp}
          type="color"
          label={`${label} slot`}
          slots={slots}
          bind={bind}
          onChange={onBind}
        />
      )}
    </div>
  );
}
