import type { IconLayerT } from "@pictor/engine";
import { useState } from "react";
import { NumberField } from "../controls/fields.tsx";
import { IconPicker } from "../controls/IconPicker.tsx";
import { PaintEditor } from "../controls/paint/paint.tsx";
import { square } from "../model/new-layer.ts";
import { defineLayerForm, type LayerFormProps, withRebind } from "./types.ts";

function IconForm({ doc, layer, onLayer }: LayerFormProps<IconLayerT>) {
  const set = (patch: Partial<IconLayerT>, key: string) => onLayer(patch, key);
  const [picking, setPicking] = useState(false);
  return (
    <section>
      <h3>Icon</h3>
      <div className="field">
        <span>Icon</span>
        <button
          type="button"
          className="btn small"
          data-testid="icon-change"
          onClick={() => setPicking(true)}
        >
          {layer.icon} — change…
        </button>
      </div>
      {picking && (
        <IconPicker
          onClose={() => setPicking(false)}
          onPick={(icon) => {
            set({ icon }, "icon");
            setPicking(false);
          }}
        />
      )}
      <NumberField
        label="Stroke width (24-unit grid)"
        testId="prop-stroke-width"
        value={layer.stroke_width ?? 2}
        min={0.1}
        max={12}
        step={0.25}
        onChange={(v) => v !== undefined && set({ stroke_width: v }, "sw")}
      />
      <PaintEditor
        label="Colour"
        testId="prop-color"
        value={layer.color}
        onChange={(color, rebind) => color !== null && set(withRebind({ color }, rebind), "color")}
        bindProp="color"
        slots={doc.slots}
        bind={layer.bind}
        onBind={(bind) => set({ bind }, "bind")}
      />
    </section>
  );
}

export const iconForm = defineLayerForm<IconLayerT>({
  type: "icon",
  label: () => "icon",
  icon: () => "☺",
  Form: IconForm,
  creators: [
    {
      id: "icon",
      label: "Icon…",
      icon: "☺",
      group: "more",
      idBase: "icon",
      heightShare: 0.2,
      maxHeight: 120,
      make: (id, box) => ({ id, type: "icon", ...square(box), icon: "star", color: "#111827" }),
      // The icon is picked first.
      Picker: ({ onPick, onClose }) => <IconPicker onClose={onClose} onPick={(icon) => onPick({ icon })} />,
    },
  ],
});
