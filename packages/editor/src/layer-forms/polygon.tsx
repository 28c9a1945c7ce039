import type { PolygonLayerT } from "@pictor/engine";
import { square } from "../model/new-layer.ts";
import { PointedShapeForm } from "./pointed-shape.tsx";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function PolygonForm(props: LayerFormProps<PolygonLayerT>) {
  return (
    <PointedShapeForm
      {...props}
      title="Polygon"
      count={{ key: "sides", label: "Sides", value: props.layer.sides }}
    />
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
