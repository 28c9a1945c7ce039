import type { ImageLayerT } from "@pictor/engine";
import { useState } from "react";
import { AssetPicker } from "../controls/AssetPicker.tsx";
import { BindSelect } from "../controls/BindSelect.tsx";
import { NumberField, SelectField, TextField } from "../controls/fields.tsx";
import { ImageFilterFields } from "../controls/paint/image-filters.tsx";
import { StrokeEditor } from "../controls/paint/stroke.tsx";
import { defineLayerForm, type LayerFormProps, withRebind } from "./types.ts";

function ImageForm({ doc, layer, onLayer }: LayerFormProps<ImageLayerT>) {
  const set = (patch: Partial<ImageLayerT>, key: string) => onLayer(patch, key);
  const focal = layer.focal ?? { x: 0.5, y: 0.5 };
  const [picking, setPicking] = useState(false);
  return (
    <section>
      <h3>Image</h3>
      <button type="button" className="btn small" data-testid="choose-asset" onClick={() => setPicking(true)}>
        Choose from the asset library…
      </button>
      {picking && (
        <AssetPicker
          onClose={() => setPicking(false)}
          onPick={(id) => {
            set({ src: `asset://${id}` }, "src-pick");
            setPicking(false);
          }}
        />
      )}
      <TextField
        label="Source (asset id, asset://…, or https URL)"
        testId="prop-src"
        value={layer.src}
        placeholder="ast_… or https://…"
        onChange={(src) => set({ src: /^ast_[A-Za-z0-9]+$/.test(src) ? `asset://${src}` : src }, "src")}
      />
      <BindSelect
        prop="src"
        type="image"
        slots={doc.slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
      />
      <div className="grid2">
        <SelectField
          label="Fit"
          value={layer.fit ?? "cover"}
          options={["cover", "contain", "fill"] as const}
          onChange={(fit) => set({ fit }, "fit")}
        />
        <NumberField
          label="Radius"
          value={layer.corner_radius ?? 0}
          min={0}
          onChange={(v) => set({ corner_radius: v ?? 0 }, "radius")}
        />
        <SelectField
          label="Align X"
          value={layer.align?.x ?? "center"}
          options={["left", "center", "right"] as const}
          onChange={(x) => set({ align: { ...layer.align, x } }, "align-x")}
        />
        <SelectField
          label="Align Y"
          value={layer.align?.y ?? "center"}
          options={["top", "center", "bottom"] as const}
          onChange={(y) => set({ align: { ...layer.align, y } }, "align-y")}
        />
        <NumberField
          label="Focal X"
          value={focal.x}
          min={0}
          max={1}
          step={0.05}
          onChange={(v) => v !== undefined && set({ focal: { ...focal, x: v } }, "fx")}
        />
        <NumberField
          label="Focal Y"
          value={focal.y}
          min={0}
          max={1}
          step={0.05}
          onChange={(v) => v !== undefined && set({ focal: { ...focal, y: v } }, "fy")}
        />
      </div>
      <StrokeEditor
        label="Border"
        prop="border"
        optional
        value={layer.border}
        initial={{ color: "#FFFFFF", width: 8 }}
        slots={doc.slots}
        bind={layer.bind}
        onChange={(border, rebind) => set(withRebind({ border: border ?? undefined }, rebind), "border")}
        onBind={(bind) => set({ bind }, "bind")}
      />
      <ImageFilterFields
        value={layer.filters}
        slots={doc.slots}
        bind={layer.bind}
        onChange={(filters, rebind) => set(withRebind({ filters }, rebind), "filters")}
        onBind={(bind) => set({ bind }, "bind")}
      />
    </section>
  );
}

export const imageForm = defineLayerForm<ImageLayerT>({
  type: "image",
  label: () => "image",
  icon: () => "▣",
  Form: ImageForm,
  // No source, and no slot value or default bound to `src`: the engine draws nothing.
  emptyNote(layer, doc, values) {
    if (layer.src !== "") return null;
    const slot = layer.bind?.src;
    if (slot !== undefined && (values[slot] || doc.slots.find((s) => s.name === slot)?.default)) return null;
    return "▣ empty image";
  },
  creators: [
    {
      id: "image",
      label: "Image",
      icon: "▣",
      group: "tools",
      key: "I",
      idBase: "image",
      heightShare: 0.3,
      maxHeight: 320,
      make: (id, box) => ({ id, type: "image", ...box, src: "", fit: "cover" }),
    },
  ],
});
