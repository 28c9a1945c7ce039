import { NumberField } from "../fields.tsx";

/** Where a paint's tiles lie: the pattern's angle and the offset of its tiles (template px). */
export interface TilePlacement {
  angle?: number;
  offset?: { x: number; y: number };
}

interface Props {
  /** The angle field's test id is `${testId}-angle`. */
  testId: string;
  value: TilePlacement;
  onChange(patch: TilePlacement): void;
}

/** The angle and offset fields of a tiled paint (a built-in pattern, an image pattern), in a grid. */
export function TilePlacementFields({ testId, value, onChange }: Props) {
  const offset = value.offset ?? { x: 0, y: 0 };
  return (
    <>
      <NumberField
        label="Angle"
        testId={`${testId}-angle`}
        value={value.angle ?? 0}
        min={-360}
        max={360}
        onChange={(angle) => angle !== undefined && onChange({ angle })}
      />
      <NumberField
        label="Offset X"
        value={offset.x}
        min={-10_000}
        max={10_000}
        onChange={(x) => x !== undefined && onChange({ offset: { ...offset, x } })}
      />
      <NumberField
        label="Offset Y"
        value={offset.y}
        min={-10_000}
        max={10_000}
        onChange={(y) => y !== undefined && onChange({ offset: { ...offset, y } })}
      />
    </>
  );
}
