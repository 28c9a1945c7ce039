import type { PolygonLayerT, StarLayerT } from "@pictor/engine";
import type { ReactNode } from "react";
import { NumberField } from "../controls/fields.tsx";
import { FillStrokeFields } from "../controls/paint/fill-stroke.tsx";
import type { LayerFormProps } from "./types.ts";

/**
 * What polygons and stars share: a whole number of corners or points (3 to 64), a corner radius, and
 * a fill and stroke drawn inside the outline. Not a layer type: the form polygon.tsx and star.tsx fill in.
 */
interface Props extends LayerFormProps<PolygonLayerT | StarLayerT> {
  title: string;
  /** The layer's count of corners (a polygon's sides) or points (a star's); test id `prop-<key>`. */
  count: { key: "sides" | "points"; label: string; value: number };
  /** The kind's own fields, between the count and the corner radius (a third column). */
  children?: ReactNode;
}

export function PointedShapeForm({ doc, layer, onLayer, title, count, children }: Props) {
  const setCount = (n: number) => onLayer(count.key === "sides" ? { sides: n } : { points: n }, count.key);
  return (
    <section>
      <h3>{title}</h3>
      <div className={children ? "grid3" : "grid2"}>
        <NumberField
          label={count.label}
          testId={`prop-${count.key}`}
          value={count.value}
          min={3}
          max={64}
          step={1}
          onChange={(v) => v !== undefined && Number.isInteger(v) && setCount(v)}
        />
        {children}
        <NumberField
          label="Corner radius"
          value={layer.corner_radius ?? 0}
          min={0}
          max={10_000}
          onChange={(v) => onLayer({ corner_radius: v || undefined }, "radius")}
        />
      </div>
      <FillStrokeFields layer={layer} slots={doc.slots} align="inside" onChange={onLayer} />
    </section>
  );
}
