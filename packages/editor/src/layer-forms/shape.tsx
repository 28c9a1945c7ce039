import type { ShapeLayerT } from "@pictor/engine";
import { CheckField, NumberField, SelectField } from "../controls/fields.tsx";
import { FillStrokeFields } from "../controls/paint/fill-stroke.tsx";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function ShapeForm({ doc, layer, onLayer }: LayerFormProps<ShapeLayerT>) {
  const set = (patch: Partial<ShapeLayerT>, key: string) => onLayer(patch, key);
  const radius = layer.corner_radius;
  const perCorner = Array.isArray(radius);
  return (
    <section>
      <h3>Shape</h3>
      <SelectField
        label="Shape"
        value={layer.shape}
        options={["rectangle", "ellipse"] as const}
        onChange={(shape) => set({ shape }, "shape")}
      />
      <FillStrokeFields layer={layer} slots={doc.slots} onChange={set} />
      {layer.shape === "rectangle" && (
        <>
          <CheckField
            label="Per-corner radius"
            value={perCorner}
            onChange={(on) => {
              const r = typeof radius === "number" ? radius : (radius?.[0] ?? 0);
              set({ corner_radius: on ? [r, r, r, r] : r }, "radius-mode");
            }}
          />
          {perCorner ? (
            <div className="grid2">
              {(["Top left", "Top right", "Bottom right", "Bottom left"] as const).map((label, i) => (
                <NumberField
                  key={label}
                  label={label}
                  value={radius[i] ?? 0}
                  min={0}
                  onChange={(v) => {
                    const next: [number, number, number, number] = [...radius];
                    next[i] = v ?? 0;
                    set({ corner_radius: next }, `radius${i}`);
                  }}
                />
              ))}
            </div>
          ) : (
            <NumberField
              label="Corner radius"
              value={radius ?? 0}
              min={0}
              onChange={(v) => set({ corner_radius: v ?? 0 }, "radius")}
            />
          )}
        </>
      )}
    </section>
  );
}

export const shapeForm = defineLayerForm<ShapeLayerT>({
  type: "shape",
  label: (layer) => layer.shape,
  icon: (layer) => (layer.shape === "ellipse" ? "●" : "■"),
  Form: ShapeForm,
  creators: [
    {
      id: "rectangle",
      label: "Rectangle",
      icon: "■",
      group: "tools",
      key: "R",
      idBase: "rect",
      heightShare: 0.3,
      maxHeight: 320,
      make: (id, box) => ({ id, type: "shape", shape: "rectangle", ...box, fill: "#6366F1" }),
    },
    {
      id: "ellipse",
      label: "Ellipse",
      icon: "●",
      group: "tools",
      key: "E",
      idBase: "ellipse",
      heightShare: 0.3,
      maxHeight: 320,
      make: (id, box) => ({ id, type: "shape", shape: "ellipse", ...box, fill: "#F59E0B" }),
    },
  ],
});
