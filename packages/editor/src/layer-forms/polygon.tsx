import type { PolygonLayerT } from "@pictor/engine";
import { NumberField } from "../controls/fields.tsx";
import { FillStrokeFields } from "../controls/paint/fill-stroke.tsx";
import { square } from "../model/new-layer.ts";
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
  type: "polygon",
  label: () => "polygon",
  icon: () => "⬟",
  Form: PolygonForm,
  creators: [
    {
      id: "polygon",
      label: "Polygon",
      icon: "⬟",
      group: "more",
      idBase: "polygon",
      heightShare: 0.3,
      maxHeight: 240,
      make: (id, box) => ({ id, type: "polygon", ...square(box), sides: 6, fill: "#10B981" }),
    },
  ],
});
