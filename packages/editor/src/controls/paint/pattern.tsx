import type { PatternPaintT } from "@pictor/engine";
import { ColorField, NumberField, SelectField } from "../fields.tsx";
import { TilePlacementFields } from "./tile-placement.tsx";

const PATTERNS = ["dots", "stripes", "grid", "checks"] as const;

interface Props {
  label: string;
  testId: string;
  value: PatternPaintT;
  onChange(value: PatternPaintT): void;
}

/** A built-in pattern paint: which pattern, its two colours, tile size, line/dot thickness, angle, offset. */
export function PatternEditor({ label, testId, value, onChange }: Props) {
  const set = (patch: Partial<PatternPaintT>) => onChange({ ...value, ...patch });
  return (
    <div className="pattern-editor" data-testid={`${testId}-pattern`}>
      <SelectField
        label={`${label} pattern`}
        testId={`${testId}-pattern-kind`}
        value={value.pattern}
        options={PATTERNS}
        onChange={(pattern) => set({ pattern })}
      />
      <ColorField
        label="Pattern colour"
        testId={`${testId}-pattern-color`}
        value={value.color ?? "#000000"}
        onChange={(color) => color && set({ color })}
      />
      <ColorField
        label="Pattern background"
        testId={`${testId}-pattern-background`}
        value={value.background ?? "#00000000"}
        onChange={(background) => background && set({ background })}
      />
      <div className="grid2">
        <NumberField
          label="Tile size"
          testId={`${testId}-pattern-size`}
          value={value.size ?? 16}
          min={2}
          max={256}
          onChange={(size) => size !== undefined && set({ size })}
        />
        <NumberField
          label="Thickness"
          testId={`${testId}-pattern-thickness`}
          value={value.thickness}
          optional
          min={0.01}
          max={1}
          step={0.05}
          onChange={(thickness) => set({ thickness })}
        />
        <TilePlacementFields testId={`${testId}-pattern`} value={value} onChange={set} />
      </div>
    </div>
  );
}
