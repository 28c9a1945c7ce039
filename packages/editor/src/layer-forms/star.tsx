import type { StarLayerT } from "@pictor/engine";
import { NumberField } from "../controls/fields.tsx";
import { square } from "../model/new-layer.ts";
import { PointedShapeForm } from "./pointed-shape.tsx";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function StarForm(props: LayerFormProps<StarLayerT>) {
  const { layer, onLayer } = props;
  return (
    <PointedShapeForm {...props} title="Star" count={{ key: "points", label: "Points", value: layer.points }}>
      <NumberField
        label="Inner radius"
        testId="prop-inner-radius"
        value={layer.inner_radius ?? 0.5}
        min={0}
        max={1}
        step={0.05}
        onChange={(v) => v !== undefined && onLayer({ inner_radius: v }, "inner")}
      />
    </PointedShapeForm>
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
