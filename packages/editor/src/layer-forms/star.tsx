import type { StarLayerT } from "@pictor/engine";
import { NumberField } from "../controls/fields.tsx";
import { FillStrokeFields } from "../controls/paint/fill-stroke.tsx";
import { square } from "../model/new-layer.ts";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function StarForm({ doc, layer, onLayer }: LayerFormProps<StarLayerT>) {
  const set = (patch: Partial<StarLayerT>, key: string) => onLayer(patch, key);
  return (
    <section>
      <h3>Star</h3>
      <div className="grid3">
        <NumberField
          label="Points"
          testId="prop-points"
          value={layer.points}
          min={3}
          max={64}
          step={1}
          onChange={(v) => v !== undefined && Number.isInteger(v) && set({ points: v }, "points")}
        />
        <NumberField
          label="Inner radius"
          testId="prop-inner-radius"
          value={layer.inner_radius ?? 0.5}
          min={0}
          max={1}
          step={0.05}
          onChange={(v) => v !== undefined && set({ inner_radius: v }, "inner")}
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

export const starForm = defineLayerForm<StarLayerT>({
  type: "star",
  label: () => "star",
  icon: () => "★",
  Form: StarForm,
  creators: [
    {
      id: "star",
      label: "Star",
      icon: "★",
      group: "more",
      idBase: "star",
      heightShare: 0.3,
      maxHeight: 240,
      make: (id, box) => ({ id, type: "star", ...square(box), points: 5, fill: "#F59E0B" }),
    },
  ],
});
