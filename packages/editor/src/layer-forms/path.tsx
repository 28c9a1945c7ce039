import type { PathLayerT } from "@pictor/engine";
import { useEffect, useState } from "react";
import { SelectField, TextField } from "../controls/fields.tsx";
import { FillStrokeFields } from "../controls/paint/fill-stroke.tsx";
import { square } from "../model/new-layer.ts";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

type ViewBox = NonNullable<PathLayerT["view_box"]>;

/** "0 0 24 24" -> the tuple, or null when it is not four numbers with a positive size. */
function parseViewBox(text: string): ViewBox | null {
  const n = text
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (n.length !== 4 || n.some((v) => !Number.isFinite(v))) return null;
  const [x, y, w, h] = n as [number, number, number, number];
  return w > 0 && h > 0 ? [x, y, w, h] : null;
}

function PathForm({ doc, layer, onLayer }: LayerFormProps<PathLayerT>) {
  const set = (patch: Partial<PathLayerT>, key: string) => onLayer(patch, key);
  const [viewBox, setViewBox] = useState(layer.view_box?.join(" ") ?? "");
  useEffect(() => setViewBox(layer.view_box?.join(" ") ?? ""), [layer.view_box]);
  return (
    <section>
      <h3>Path</h3>
      <TextField
        label="Path data (SVG d)"
        testId="prop-d"
        multiline
        value={layer.d}
        onChange={(d) => set({ d }, "d")}
      />
      <TextField
        label="View box (x y width height; empty: the path's bounds)"
        testId="prop-view-box"
        value={viewBox}
        placeholder="0 0 24 24"
        onChange={(text) => {
          setViewBox(text);
          if (text.trim() === "") set({ view_box: undefined }, "viewbox");
          const parsed = parseViewBox(text);
          if (parsed) set({ view_box: parsed }, "viewbox");
        }}
      />
      <div className="grid2">
        <SelectField
          label="Fit"
          value={layer.fit ?? "contain"}
          options={["contain", "fill"] as const}
          onChange={(fit) => set({ fit }, "fit")}
        />
        <SelectField
          label="Fill rule"
          value={layer.fill_rule ?? "nonzero"}
          options={["nonzero", "evenodd"] as const}
          onChange={(fill_rule) => set({ fill_rule }, "rule")}
        />
      </div>
      <FillStrokeFields layer={layer} slots={doc.slots} align="center" onChange={set} />
    </section>
  );
}

export const pathForm = defineLayerForm<PathLayerT>({
  type: "path",
  label: () => "path",
  icon: () => "✎",
  Form: PathForm,
  creators: [
    {
      id: "path",
      label: "Path",
      icon: "✎",
      group: "more",
      idBase: "path",
      heightShare: 0.3,
      maxHeight: 240,
      make: (id, box) => ({
        id,
        type: "path",
        ...square(box),
        // A speech bubble, in a 24-unit box.
        d: "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
        fill: "#6366F1",
      }),
    },
  ],
});
