import type { PaintT, SlotT } from "../../engine/engine-types.ts";
import type { Rebind } from "./gradient.tsx";
import { PaintEditor } from "./paint.tsx";
import { StrokeEditor, type StrokeLike } from "./stroke.tsx";

interface FillStrokeLayer {
  fill: PaintT | null;
  stroke?: StrokeLike | null;
  bind?: Record<string, string>;
}

interface Props {
  layer: FillStrokeLayer;
  slots: readonly SlotT[];
  /** Where the kind draws its stroke unless told (engine: each kind's default). */
  align?: NonNullable<StrokeLike["align"]>;
  onChange(patch: Partial<FillStrokeLayer>, key: string): void;
}

const rebound = (rebind: Rebind | undefined) => (rebind ? { bind: rebind.bind } : {});

/** `fill` (none, colour, gradient) and the optional `stroke` of shapes, polygons, stars and paths. */
export function FillStrokeFields({ layer, slots, align, onChange }: Props) {
  const onBind = (bind: Record<string, string> | undefined) => onChange({ bind }, "bind");
  return (
    <>
      <PaintEditor
        label="Fill"
        testId="prop-fill"
        nullable
        value={layer.fill}
        onChange={(fill, rebind) => onChange({ fill, ...rebound(rebind) }, "fill")}
        bindProp="fill"
        slots={slots}
        bind={layer.bind}
        onBind={onBind}
      />
      <StrokeEditor
        label="Stroke"
        prop="stroke"
        optional
        aligns={align}
        value={layer.stroke}
        initial={{ color: "#111827", width: 2 }}
        slots={slots}
        bind={layer.bind}
        onChange={(stroke, rebind) => onChange({ stroke: stroke ?? undefined, ...rebound(rebind) }, "stroke")}
        onBind={onBind}
      />
    </>
  );
}
