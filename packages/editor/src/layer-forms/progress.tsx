import type { ProgressLabelT, ProgressLayerT } from "@pictor/engine";
import { BindSelect } from "../controls/BindSelect.tsx";
import { CheckField, ColorField, NumberField, SelectField, TextField } from "../controls/fields.tsx";
import { LabelFontFields } from "../controls/label-font.tsx";
import { NumberFormatFields } from "../controls/number-format.tsx";
import { PaintEditor } from "../controls/paint/paint.tsx";
import { square } from "../model/new-layer.ts";
import { defineLayerForm, type LayerFormProps, withRebind } from "./types.ts";

const NEW_LABEL: ProgressLabelT = { font: { family: "Inter", weight: 700, size: 14 }, color: "#111827" };

function ProgressForm({ doc, layer, onLayer }: LayerFormProps<ProgressLayerT>) {
  const set = (patch: Partial<ProgressLayerT>, key: string) => onLayer(patch, key);
  const onBind = (bind: Record<string, string> | undefined) => set({ bind }, "bind");
  const label = layer.label;
  const setLabel = (patch: Partial<ProgressLabelT>, key: string) =>
    label && set({ label: { ...label, ...patch } }, `label-${key}`);
  return (
    <section>
      <h3>Progress</h3>
      <div className="grid3">
        <NumberField
          label="Value"
          testId="prop-progress-value"
          value={layer.value}
          onChange={(value) => value !== undefined && set({ value }, "value")}
        />
        <NumberField
          label="Min"
          testId="prop-progress-min"
          value={layer.min ?? 0}
          onChange={(min) => min !== undefined && set({ min }, "min")}
        />
        <NumberField
          label="Max"
          testId="prop-progress-max"
          value={layer.max ?? 100}
          onChange={(max) => max !== undefined && set({ max }, "max")}
        />
      </div>
      <BindSelect
        prop="value"
        label="value"
        type="number"
        slots={doc.slots}
        bind={layer.bind}
        onChange={onBind}
      />
      <BindSelect
        prop="min"
        label="min"
        type="number"
        slots={doc.slots}
        bind={layer.bind}
        onChange={onBind}
      />
      <BindSelect
        prop="max"
        label="max"
        type="number"
        slots={doc.slots}
        bind={layer.bind}
        onChange={onBind}
      />
      <p className="muted small">
        Values outside min..max are drawn clamped; the label says the value as given.
      </p>
      <div className="grid2">
        <SelectField
          label="Shape"
          testId="prop-progress-shape"
          value={layer.shape ?? "bar"}
          options={["bar", "ring"] as const}
          onChange={(shape) => set(shape === "ring" ? { shape } : { shape, thickness: undefined }, "shape")}
        />
        {layer.shape === "ring" && (
          <NumberField
            label="Thickness"
            testId="prop-progress-thickness"
            value={layer.thickness}
            optional
            min={0.1}
            max={10_000}
            onChange={(thickness) => set({ thickness }, "thickness")}
          />
        )}
        <CheckField
          label="Rounded ends"
          testId="prop-progress-rounded"
          value={layer.rounded !== false}
          onChange={(rounded) => set({ rounded: rounded ? undefined : false }, "rounded")}
        />
      </div>
      <PaintEditor
        label="Fill"
        testId="prop-fill"
        value={layer.fill ?? "#2563EB"}
        onChange={(fill, rebind) => fill !== null && set(withRebind({ fill }, rebind), "fill")}
        bindProp="fill"
        slots={doc.slots}
        bind={layer.bind}
        onBind={onBind}
      />
      <PaintEditor
        label="Track"
        testId="prop-track"
        nullable
        value={layer.track === undefined ? "#E5E7EB" : layer.track}
        onChange={(track, rebind) => set(withRebind({ track }, rebind), "track")}
        bindProp="track"
        slots={doc.slots}
        bind={layer.bind}
        onBind={onBind}
      />
      <CheckField
        label="Label"
        testId="prop-progress-label"
        value={label !== undefined}
        onChange={(on) => set({ label: on ? NEW_LABEL : undefined }, "label")}
      />
      {label && (
        <>
          <div className="grid2">
            <SelectField
              label="Shows"
              testId="prop-progress-label-content"
              value={label.content ?? "percent"}
              options={["percent", "value"] as const}
              onChange={(content) => setLabel({ content }, "content")}
            />
            {layer.shape !== "ring" && (
              <SelectField
                label="Align"
                value={label.align ?? "center"}
                options={["left", "center", "right", "end"] as const}
                onChange={(align) => setLabel({ align }, "align")}
              />
            )}
            {label.format === undefined && (
              <NumberField
                label="Decimals"
                value={label.decimals ?? 0}
                min={0}
                max={6}
                step={1}
                onChange={(d) =>
                  d !== undefined && Number.isInteger(d) && setLabel({ decimals: d || undefined }, "decimals")
                }
              />
            )}
          </div>
          {label.format === undefined && (
            <div className="grid2">
              <TextField
                label="Before"
                value={label.prefix ?? ""}
                onChange={(prefix) => setLabel({ prefix: prefix || undefined }, "prefix")}
              />
              <TextField
                label="After"
                value={label.suffix ?? ""}
                onChange={(suffix) => setLabel({ suffix: suffix || undefined }, "suffix")}
              />
            </div>
          )}
          <NumberFormatFields
            testId="prop-progress-label-format"
            value={label.format}
            defaultStyle={label.content === "value" ? "decimal" : "percent"}
            onChange={(format) =>
              setLabel(
                format === undefined
                  ? { format }
                  : { format, decimals: undefined, prefix: undefined, suffix: undefined },
                "format",
              )
            }
          />
          <LabelFontFields
            testId="prop-progress-label-font"
            value={label.font}
            onChange={(font, key) => setLabel({ font }, key)}
          />
          <ColorField
            label="Label colour"
            testId="prop-progress-label-color"
            value={label.color ?? "#111827"}
            onChange={(color) => color !== null && setLabel({ color }, "color")}
          />
        </>
      )}
    </section>
  );
}

export const progressForm = defineLayerForm<ProgressLayerT>({
  type: "progress",
  label: (layer) => (layer.shape === "ring" ? "progress ring" : "progress bar"),
  icon: (layer) => (layer.shape === "ring" ? "◔" : "▭"),
  Form: ProgressForm,
  creators: [
    {
      id: "progress-bar",
      label: "Progress bar",
      icon: "▭",
      group: "more",
      idBase: "bar",
      heightShare: 0.06,
      maxHeight: 32,
      make: (id, box) => ({ id, type: "progress", ...box, value: 72 }),
    },
    {
      id: "progress-ring",
      label: "Progress ring",
      icon: "◔",
      group: "more",
      idBase: "ring",
      heightShare: 0.3,
      maxHeight: 200,
      make: (id, box) => ({
        id,
        type: "progress",
        shape: "ring",
        ...square(box),
        value: 72,
        label: { font: { family: "Inter", weight: 700, size: Math.max(8, Math.round(box.height / 5)) } },
      }),
    },
  ],
});
