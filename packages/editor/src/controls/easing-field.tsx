import type { EasingT } from "@pictor/engine";
import { NumberField, SelectField } from "./fields.tsx";

type Curve = "default" | "linear" | "ease-in" | "ease-out" | "ease-in-out" | "cubic-bezier" | "spring";

const NAMED = ["linear", "ease-in", "ease-out", "ease-in-out"] as const;
const STANDARD_BEZIER: [number, number, number, number] = [0.25, 0.1, 0.25, 1];

function curveOf(value: EasingT | undefined): Curve {
  if (value === undefined) return "default";
  if (typeof value === "string") return value;
  return "cubic_bezier" in value ? "cubic-bezier" : "spring";
}

type Spring = { stiffness?: number; damping?: number; mass?: number };

/** A spring with one parameter changed; an emptied one is left out (its default applies). */
function springWith(spring: Spring, patch: Spring): Spring {
  const next: Spring = { ...spring, ...patch };
  for (const key of ["stiffness", "damping", "mass"] as const) if (next[key] === undefined) delete next[key];
  return next;
}

interface Props {
  label: string;
  testId: string;
  value: EasingT | undefined;
  /** The curve used when none is given, named in the "default" choice. */
  fallback: string;
  onChange(value: EasingT | undefined): void;
}

/**
 * An easing as the document holds it: a named CSS curve, a cubic Bézier (its four numbers) or a
 * spring (stiffness, damping, mass); "default" leaves it out, so the engine's default applies.
 */
export function EasingField({ label, testId, value, fallback, onChange }: Props) {
  const curve = curveOf(value);
  const bezier =
    value !== undefined && typeof value === "object" && "cubic_bezier" in value ? value.cubic_bezier : null;
  const spring = value !== undefined && typeof value === "object" && "spring" in value ? value.spring : null;
  const options = [
    { value: "default" as const, label: `Default (${fallback})` },
    ...NAMED.map((name) => ({ value: name, label: name })),
    { value: "cubic-bezier" as const, label: "cubic-bezier" },
    { value: "spring" as const, label: "spring" },
  ];
  return (
    <>
      <SelectField<Curve>
        label={label}
        testId={testId}
        value={curve}
        options={options}
        onChange={(next) => {
          if (next === "default") return onChange(undefined);
          if (next === "cubic-bezier") return onChange({ cubic_bezier: STANDARD_BEZIER });
          if (next === "spring") return onChange({ spring: {} });
          onChange(next);
        }}
      />
      {bezier && (
        <div className="grid2">
          {(["x1", "y1", "x2", "y2"] as const).map((name, i) => (
            <NumberField
              key={name}
              label={`${label}: ${name}`}
              testId={`${testId}-${name}`}
              value={bezier[i]}
              min={i % 2 === 0 ? 0 : -5}
              max={i % 2 === 0 ? 1 : 5}
              step={0.05}
              onChange={(v) => {
                if (v === undefined) return;
                const next = [...bezier] as [number, number, number, number];
                next[i] = v;
                onChange({ cubic_bezier: next });
              }}
            />
          ))}
        </div>
      )}
      {spring && (
        <div className="grid3">
          <NumberField
            label="Stiffness"
            testId={`${testId}-stiffness`}
            value={spring.stiffness}
            min={1}
            max={1000}
            optional
            placeholder="100"
            onChange={(stiffness) => onChange({ spring: springWith(spring, { stiffness }) })}
          />
          <NumberField
            label="Damping"
            testId={`${testId}-damping`}
            value={spring.damping}
            min={0}
            max={100}
            optional
            placeholder="10"
            onChange={(damping) => onChange({ spring: springWith(spring, { damping }) })}
          />
          <NumberField
            label="Mass"
            testId={`${testId}-mass`}
            value={spring.mass}
            min={0.1}
            max={100}
            optional
            placeholder="1"
            onChange={(mass) => onChange({ spring: springWith(spring, { mass }) })}
          />
        </div>
      )}
    </>
  );
}
