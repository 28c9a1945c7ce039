import { NumberField } from "../controls/fields.tsx";
import { FillStrokeFields } from "../controls/paint/fill-stroke.tsx";
import type { PolygonLayerT } from "../engine/engine-types.ts";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function PolygonForm({ doc, layer, onLayer }: LayerFormProps<PolygonLayerT>) {
  const set = (patch: Partial<PolygonLayerT>, key: string) => onLayer(patch, key);
  return (
    <section>
      <h3>Polygon</h3>
      <div className="grid2">
        <NumberField
          label="Sides"
          testId="prop-sides"
          value={layer.sides}
          min={3}
          max={64}
          step={1}
          onChange={(v) => v !== undefined && Number.isInteger(v) && set({ sides: v }, "sides")}
        />
        <NumberField
          label="Corner radius"
          value={layer.corner_radius ?? 0}
          min={0}
          max={10_000}
          onChange={(v) => set({ corner_radius: v || undefined }, "radius")}
        />
      </div>
      <FillStrokeFields layer={layer} slots={doc.slots} align="inside" onChange={set} />
    </section>
  );
}

export const polygonForm = defineLayerForm<PolygonLayerT>({
  label: () => "polygon",
  icon: () => "⬟",
  Form: PolygonForm,
});
