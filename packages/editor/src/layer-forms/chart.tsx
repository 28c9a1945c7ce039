import type { ChartLayerT, PaintT, SlotT } from "@pictor/engine";
import { useEffect, useState } from "react";
import { BindSelect } from "../controls/BindSelect.tsx";
import { CheckField, ColorField, NumberField, SelectField, TextField } from "../controls/fields.tsx";
import { LabelFontFields } from "../controls/label-font.tsx";
import { NumberFormatFields } from "../controls/number-format.tsx";
import { PaintEditor } from "../controls/paint/paint.tsx";
import { defineLayerForm, type LayerFormProps, withRebind } from "./types.ts";

type Datum = ChartLayerT["data"][number];

/** The data as the designer types it: one point a line, `label: value` or a bare value. */
export function dataText(data: readonly Datum[]): string {
  return data.map((d) => (typeof d === "number" ? String(d) : `${d.label}: ${d.value}`)).join("\n");
}

/** The points of the typed text, or null while a line is not a point. */
export function parseDataText(text: string): Datum[] | null {
  const out: Datum[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const colon = line.lastIndexOf(":");
    const valueText = (colon < 0 ? line : line.slice(colon + 1)).trim();
    const value = Number(valueText);
    if (valueText === "" || !Number.isFinite(value)) return null;
    out.push(colon < 0 ? value : { label: line.slice(0, colon).trim(), value });
  }
  return out;
}

const DEFAULT_FONT = { family: "Inter", size: 14 };

type ListSlot = Extract<SlotT, { type: "list" }>;

/** The list's fields of the given types, and the current choice even when it is none of them. */
function fieldOptions(slot: ListSlot, current: string, types: readonly string[]): string[] {
  const names = slot.fields.filter((field) => types.includes(field.type)).map((field) => field.name);
  return names.includes(current) ? names : [current, ...names];
}
const SERIES = ["#2563EB"];
const DONUT = ["#2563EB", "#F59E0B", "#10B981", "#EF4444", "#8B5CF6", "#06B6D4"];

function ChartForm({ doc, layer, onLayer }: LayerFormProps<ChartLayerT>) {
  const set = (patch: Partial<ChartLayerT>, key: string) => onLayer(patch, key);
  const onBind = (bind: Record<string, string> | undefined) => set({ bind }, "bind");
  const [draft, setDraft] = useState(dataText(layer.data));
  useEffect(() => {
    // Another edit (undo, a paste) changed the data: show it, unless the draft already says it.
    setDraft((current) =>
      JSON.stringify(parseDataText(current)) === JSON.stringify(layer.data) ? current : dataText(layer.data),
    );
  }, [layer.data]);
  const colors: readonly PaintT[] = layer.colors ?? (layer.kind === "donut" ? DONUT : SERIES);
  const series = layer.kind !== "donut";
  const bound =
    layer.bind?.data === undefined ? undefined : doc.slots.find((slot) => slot.name === layer.bind?.data);
  const boundList = bound?.type === "list" ? bound : undefined;
  const setColors = (next: PaintT[], key: string, bind?: Record<string, string> | undefined) =>
    set(bind === undefined ? { colors: next } : { colors: next, bind }, key);
  return (
    <section>
      <h3>Chart</h3>
      <SelectField
        label="Kind"
        testId="prop-chart-kind"
        value={layer.kind}
        options={["bar", "line", "donut"] as const}
        onChange={(kind) =>
          set(
            kind === "donut"
              ? {
                  kind,
                  value_axis: undefined,
                  category_labels: undefined,
                  gridlines: undefined,
                  min: undefined,
                  max: undefined,
                }
              : { kind },
            "kind",
          )
        }
      />
      <TextField
        label={`Data (one a line: a value, or label: value; at most 50)${boundList ? "; shown when the list gives none" : ""}`}
        testId="prop-chart-data"
        multiline
        value={draft}
        onChange={(text) => {
          setDraft(text);
          const data = parseDataText(text);
          if (data !== null && data.length <= 50) set({ data }, "data");
        }}
      />
      <BindSelect
        prop="data"
        label="data"
        type="list"
        slots={doc.slots}
        bind={layer.bind}
        onChange={(bind) =>
          set(
            bind?.data === undefined ? { bind, value_field: undefined, label_field: undefined } : { bind },
            "bind",
          )
        }
      />
      {boundList && (
        <div className="grid2">
          <SelectField
            label="Value field"
            testId="prop-chart-value-field"
            value={layer.value_field ?? "value"}
            options={fieldOptions(boundList, layer.value_field ?? "value", ["number"])}
            onChange={(v) => set({ value_field: v === "value" ? undefined : v }, "value_field")}
          />
          <SelectField
            label="Label field"
            testId="prop-chart-label-field"
            value={layer.label_field ?? "label"}
            options={fieldOptions(boundList, layer.label_field ?? "label", ["text", "number"])}
            onChange={(v) => set({ label_field: v === "label" ? undefined : v }, "label_field")}
          />
        </div>
      )}
      <div className="field">
        <span>Colours{series ? " (bars in turn; a line takes the first)" : " (slices in turn)"}</span>
        {colors.map((paint, i) => (
          <PaintEditor
            // biome-ignore lint/suspicious/noArrayIndexKey: colours are edited in place by position
            key={i}
            label={`Colour ${i + 1}`}
            testId={`prop-chart-color-${i}`}
            value={paint}
            onChange={(value, rebind) => {
              if (value === null) return;
              const next = [...colors];
              next[i] = value;
              set(withRebind({ colors: next }, rebind), `color-${i}`);
            }}
            bindProp={`colors[${i}]`}
            slots={doc.slots}
            bind={layer.bind}
            onBind={onBind}
          />
        ))}
        <div className="row">
          {colors.length < 12 && (
            <button
              type="button"
              data-testid="chart-add-color"
              onClick={() => setColors([...colors, "#9CA3AF"], "colors")}
            >
              Add colour
            </button>
          )}
          {colors.length > 1 && (
            <button
              type="button"
              data-testid="chart-remove-color"
              onClick={() => {
                const last = `colors[${colors.length - 1}]`;
                const bind = Object.fromEntries(Object.entries(layer.bind ?? {}).filter(([p]) => p !== last));
                setColors(colors.slice(0, -1), "colors", bind);
              }}
            >
              Remove last
            </button>
          )}
        </div>
      </div>
      <div className="grid2">
        {series && (
          <>
            <CheckField
              label="Value axis"
              testId="prop-chart-value-axis"
              value={layer.value_axis === true}
              onChange={(v) => set({ value_axis: v || undefined }, "value_axis")}
            />
            <CheckField
              label="Gridlines"
              testId="prop-chart-gridlines"
              value={layer.gridlines === true}
              onChange={(v) => set({ gridlines: v || undefined }, "gridlines")}
            />
            <CheckField
              label="Category labels"
              testId="prop-chart-category-labels"
              value={layer.category_labels === true}
              onChange={(v) => set({ category_labels: v || undefined }, "category_labels")}
            />
          </>
        )}
        <CheckField
          label="Value labels"
          testId="prop-chart-value-labels"
          value={layer.value_labels === true}
          onChange={(v) => set({ value_labels: v || undefined }, "value_labels")}
        />
      </div>
      {series && (
        <div className="grid2">
          <NumberField label="Axis min" value={layer.min} optional onChange={(min) => set({ min }, "min")} />
          <NumberField label="Axis max" value={layer.max} optional onChange={(max) => set({ max }, "max")} />
        </div>
      )}
      {layer.format === undefined && (
        <div className="grid3">
          <NumberField
            label="Decimals"
            value={layer.decimals}
            optional
            min={0}
            max={6}
            step={1}
            onChange={(d) => (d === undefined || Number.isInteger(d)) && set({ decimals: d }, "decimals")}
          />
          <TextField
            label="Before"
            value={layer.prefix ?? ""}
            onChange={(p) => set({ prefix: p || undefined }, "prefix")}
          />
          <TextField
            label="After"
            value={layer.suffix ?? ""}
            onChange={(s) => set({ suffix: s || undefined }, "suffix")}
          />
        </div>
      )}
      <NumberFormatFields
        testId="prop-chart-format"
        value={layer.format}
        onChange={(format) =>
          set(
            format === undefined
              ? { format }
              : { format, decimals: undefined, prefix: undefined, suffix: undefined },
            "format",
          )
        }
      />
      {layer.kind === "bar" && (
        <div className="grid2">
          <NumberField
            label="Bar gap"
            testId="prop-chart-bar-gap"
            value={layer.bar_gap ?? 0.3}
            min={0}
            max={0.95}
            step={0.05}
            onChange={(bar_gap) => set({ bar_gap }, "bar_gap")}
          />
          <NumberField
            label="Corner radius"
            value={layer.corner_radius ?? 0}
            min={0}
            max={10_000}
            onChange={(r) => set({ corner_radius: r || undefined }, "corner_radius")}
          />
        </div>
      )}
      {layer.kind === "line" && (
        <>
          <div className="grid2">
            <NumberField
              label="Line width"
              value={layer.line_width ?? 3}
              min={0.1}
              max={200}
              onChange={(line_width) => set({ line_width }, "line_width")}
            />
            <NumberField
              label="Point radius"
              value={layer.point_radius}
              optional
              min={0}
              max={200}
              onChange={(point_radius) => set({ point_radius }, "point_radius")}
            />
          </div>
          <PaintEditor
            label="Area"
            testId="prop-chart-area"
            nullable
            value={layer.area ?? null}
            onChange={(area, rebind) => set(withRebind({ area: area ?? undefined }, rebind), "area")}
            bindProp="area"
            slots={doc.slots}
            bind={layer.bind}
            onBind={onBind}
          />
        </>
      )}
      {layer.kind === "donut" && (
        <>
          <NumberField
            label="Hole (share of the diameter; 0: a pie)"
            testId="prop-chart-hole"
            value={layer.hole ?? 0.6}
            min={0}
            max={0.95}
            step={0.05}
            onChange={(hole) => set({ hole }, "hole")}
          />
          <PaintEditor
            label="Track (nothing to divide)"
            testId="prop-chart-track"
            nullable
            value={layer.track === undefined ? "#E5E7EB" : layer.track}
            onChange={(track, rebind) => set(withRebind({ track }, rebind), "track")}
            bindProp="track"
            slots={doc.slots}
            bind={layer.bind}
            onBind={onBind}
          />
        </>
      )}
      <LabelFontFields
        testId="prop-chart-font"
        value={layer.font ?? DEFAULT_FONT}
        onChange={(font, key) => set({ font }, key)}
      />
      <ColorField
        label="Label colour"
        testId="prop-chart-label-color"
        value={layer.label_color ?? "#374151"}
        onChange={(label_color) => label_color !== null && set({ label_color }, "label_color")}
      />
      {series && (
        <div className="grid2">
          <ColorField
            label="Axis colour"
            value={layer.axis_color ?? "#9CA3AF"}
            onChange={(axis_color) => axis_color !== null && set({ axis_color }, "axis_color")}
          />
          <ColorField
            label="Grid colour"
            value={layer.grid_color ?? "#E5E7EB"}
            onChange={(grid_color) => grid_color !== null && set({ grid_color }, "grid_color")}
          />
        </div>
      )}
    </section>
  );
}

export const chartForm = defineLayerForm<ChartLayerT>({
  type: "chart",
  label: (layer) => `${layer.kind} chart`,
  icon: (layer) => (layer.kind === "donut" ? "◕" : layer.kind === "line" ? "⟋" : "▮"),
  Form: ChartForm,
  creators: [
    {
      id: "chart",
      label: "Chart",
      icon: "▮",
      group: "more",
      idBase: "chart",
      heightShare: 0.4,
      maxHeight: 320,
      make: (id, box) => ({
        id,
        type: "chart",
        kind: "bar",
        ...box,
        data: [
          { label: "Mon", value: 12 },
          { label: "Tue", value: 19 },
          { label: "Wed", value: 7 },
          { label: "Thu", value: 24 },
          { label: "Fri", value: 16 },
        ],
        category_labels: true,
        value_labels: true,
        corner_radius: 4,
      }),
    },
  ],
});
