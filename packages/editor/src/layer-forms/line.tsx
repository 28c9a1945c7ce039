import type { LineLayerT } from "@pictor/engine";
import { useEffect, useState } from "react";
import { NumberField, SelectField, TextField } from "../controls/fields.tsx";
import { StrokeEditor } from "../controls/paint/stroke.tsx";
import { defineLayerForm, type LayerFormProps, withRebind } from "./types.ts";

/** "8 4" -> [8, 4]; null when it is not 1 to 16 non-negative numbers. */
function parseDash(text: string): number[] | null {
  const n = text
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  return n.length >= 1 && n.length <= 16 && n.every((v) => Number.isFinite(v) && v >= 0) ? n : null;
}

function LineForm({ doc, layer, onLayer }: LayerFormProps<LineLayerT>) {
  const set = (patch: Partial<LineLayerT>, key: string) => onLayer(patch, key);
  const from = layer.from ?? { x: 0, y: 0 };
  const to = layer.to ?? { x: 1, y: 1 };
  const [dash, setDash] = useState(layer.dash?.join(" ") ?? "");
  useEffect(() => setDash(layer.dash?.join(" ") ?? ""), [layer.dash]);
  const point = (end: "from" | "to", axis: "x" | "y", label: string) => (
    <NumberField
      label={label}
      testId={`prop-${end}-${axis}`}
      value={(end === "from" ? from : to)[axis]}
      min={0}
      max={1}
      step={0.05}
      onChange={(v) => v !== undefined && set({ [end]: { ...(end === "from" ? from : to), [axis]: v } }, end)}
    />
  );
  return (
    <section>
      <h3>Line</h3>
      <p className="muted small">Ends are points of the box, 0 to 1 on each axis.</p>
      <div className="grid2">
        {point("from", "x", "From X")}
        {point("from", "y", "From Y")}
        {point("to", "x", "To X")}
        {point("to", "y", "To Y")}
      </div>
      <StrokeEditor
        label="Line"
        prop="stroke"
        value={layer.stroke}
        initial={layer.stroke}
        slots={doc.slots}
        bind={layer.bind}
        onChange={(stroke, rebind) => stroke && set(withRebind({ stroke }, rebind), "stroke")}
        onBind={(bind) => set({ bind }, "bind")}
      />
      <div className="grid2">
        <SelectField
          label="Cap"
          value={layer.cap ?? "butt"}
          options={["butt", "round", "square"] as const}
          onChange={(cap) => set({ cap }, "cap")}
        />
        <TextField
          label="Dash (on off …)"
          testId="prop-dash"
          value={dash}
          placeholder="solid"
          onChange={(text) => {
            setDash(text);
            if (text.trim() === "") set({ dash: undefined }, "dash");
            const parsed = parseDash(text);
            if (parsed?.some((v) => v > 0)) set({ dash: parsed }, "dash");
          }}
        />
      </div>
    </section>
  );
}

export const lineForm = defineLayerForm<LineLayerT>({
  type: "line",
  label: () => "line",
  icon: () => "╱",
  Form: LineForm,
  creators: [
    {
      id: "line",
      label: "Line",
      icon: "╱",
      group: "more",
      idBase: "line",
      heightShare: 0,
      maxHeight: 0,
      make: (id, box) => ({ id, type: "line", ...box, stroke: { color: "#111827", width: 4 } }),
    },
  ],
});
