import type { RatingLayerT } from "@pictor/engine";
import { BindSelect } from "../controls/BindSelect.tsx";
import { NumberField, SelectField, TextField } from "../controls/fields.tsx";
import { PaintEditor } from "../controls/paint/paint.tsx";
import { StrokeEditor } from "../controls/paint/stroke.tsx";
import { defineLayerForm, type LayerFormProps, withRebind } from "./types.ts";

function RatingForm({ doc, layer, onLayer }: LayerFormProps<RatingLayerT>) {
  const set = (patch: Partial<RatingLayerT>, key: string) => onLayer(patch, key);
  const onBind = (bind: Record<string, string> | undefined) => set({ bind }, "bind");
  return (
    <section>
      <h3>Rating</h3>
      <TextField
        label="Value (e.g. 4.5; empty: no rating yet)"
        testId="prop-value"
        value={layer.value}
        onChange={(value) => set({ value }, "value")}
      />
      <BindSelect prop="value" type="text" slots={doc.slots} bind={layer.bind} onChange={onBind} />
      <div className="grid3">
        <NumberField
          label="Out of"
          testId="prop-max"
          value={layer.max ?? 5}
          min={1}
          max={20}
          step={1}
          onChange={(v) => v !== undefined && Number.isInteger(v) && set({ max: v }, "max")}
        />
        <SelectField
          label="Symbol"
          testId="prop-rating-shape"
          value={layer.shape ?? "star"}
          options={["star", "circle", "heart"] as const}
          onChange={(shape) => set({ shape }, "shape")}
        />
        <NumberField
          label="Spacing"
          value={layer.spacing}
          optional
          min={0}
          max={10_000}
          onChange={(spacing) => set({ spacing }, "spacing")}
        />
      </div>
      <PaintEditor
        label="Filled"
        testId="prop-color"
        value={layer.color ?? "#F59E0B"}
        onChange={(color, rebind) => color !== null && set(withRebind({ color }, rebind), "color")}
        bindProp="color"
        slots={doc.slots}
        bind={layer.bind}
        onBind={onBind}
      />
      <PaintEditor
        label="Empty"
        testId="prop-empty-color"
        nullable
        value={layer.empty_color === undefined ? "#E5E7EB" : layer.empty_color}
        onChange={(empty_color, rebind) => set(withRebind({ empty_color }, rebind), "empty")}
        bindProp="empty_color"
        slots={doc.slots}
        bind={layer.bind}
        onBind={onBind}
      />
      <StrokeEditor
        label="Outline"
        prop="stroke"
        optional
        value={layer.stroke}
        initial={{ color: "#B45309", width: 1 }}
        slots={doc.slots}
        bind={layer.bind}
        onChange={(stroke, rebind) => set(withRebind({ stroke: stroke ?? undefined }, rebind), "stroke")}
        onBind={onBind}
      />
    </section>
  );
}

export const ratingForm = defineLayerForm<RatingLayerT>({
  type: "rating",
  label: () => "rating",
  icon: () => "☆",
  Form: RatingForm,
  creators: [
    {
      id: "rating",
      label: "Rating",
      icon: "☆",
      group: "more",
      idBase: "rating",
      heightShare: 0.1,
      maxHeight: 48,
      // Five symbols as tall as the box, a fifth of a symbol apart: 5.8 heights wide, centred.
      make: (id, box) => {
        const width = Math.round(box.height * 5.8);
        return {
          id,
          type: "rating",
          ...box,
          x: Math.round(box.x + (box.width - width) / 2),
          width,
          value: "4.5",
        };
      },
    },
  ],
});
