import type { StackLayerT } from "@pictor/engine";
import { CheckField, NumberField, SelectField } from "../controls/fields.tsx";
import { FillStrokeFields } from "../controls/paint/fill-stroke.tsx";
import { stripUndefined } from "../model/doc-ops.ts";
import { PaddingField } from "./padding-field.tsx";
import { RepeatFields } from "./repeat-fields.tsx";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

const ALIGNS = ["start", "center", "end", "stretch"] as const;
const DISTRIBUTIONS = ["start", "center", "end", "space-between"] as const;

/**
 * A stack's own properties: direction, gap, padding, alignment across, distribution along, wrap
 * (rows), and the fill, stroke and corner radius drawn behind its children. How each child sizes
 * itself (fixed, hug, fill) is in that child's Layout section.
 */
function StackForm({ doc, layer, onLayer }: LayerFormProps<StackLayerT>) {
  const set = (patch: Partial<StackLayerT>, key: string) => onLayer(patch, key);
  const row = (layer.direction ?? "column") === "row";
  return (
    <section>
      <h3>Stack</h3>
      <p className="muted small">
        {layer.layers.length} layers, placed one after another; hidden ones take no space.
      </p>
      <SelectField
        label="Direction"
        testId="prop-stack-direction"
        value={layer.direction ?? "column"}
        options={["column", "row"] as const}
        onChange={(direction) =>
          set({ direction, ...(direction === "column" ? { wrap: undefined } : {}) }, "direction")
        }
      />
      <div className="grid2">
        <NumberField
          label="Gap"
          testId="prop-stack-gap"
          value={layer.gap ?? 0}
          min={0}
          onChange={(v) => set({ gap: v === undefined || v === 0 ? undefined : v }, "gap")}
        />
        {row && layer.wrap === true && (
          <NumberField
            label="Line gap"
            testId="prop-stack-line-gap"
            value={layer.line_gap ?? layer.gap ?? 0}
            min={0}
            onChange={(v) => set({ line_gap: v }, "line-gap")}
          />
        )}
      </div>
      <PaddingField
        value={layer.padding}
        testId="prop-stack-padding"
        onChange={(padding) => set({ padding }, "padding")}
      />
      <SelectField
        label={row ? "Align (vertically)" : "Align (horizontally)"}
        testId="prop-stack-align"
        value={layer.align ?? "start"}
        options={ALIGNS}
        onChange={(align) => set({ align: align === "start" ? undefined : align }, "align")}
      />
      <SelectField
        label="Distribute"
        testId="prop-stack-distribute"
        value={layer.distribute ?? "start"}
        options={DISTRIBUTIONS}
        onChange={(distribute) =>
          set({ distribute: distribute === "start" ? undefined : distribute }, "distribute")
        }
      />
      {row && (
        <CheckField
          label="Wrap onto new lines"
          testId="prop-stack-wrap"
          value={layer.wrap === true}
          onChange={(wrap) => set({ wrap: wrap ? true : undefined }, "wrap")}
        />
      )}
      <FillStrokeFields
        layer={{ ...layer, fill: layer.fill ?? null }}
        slots={doc.slots}
        onChange={(patch, key) => set(patch as Partial<StackLayerT>, key)}
      />
      <NumberField
        label="Corner radius"
        testId="prop-stack-radius"
        value={
          typeof layer.corner_radius === "number" ? layer.corner_radius : (layer.corner_radius?.[0] ?? 0)
        }
        min={0}
        onChange={(v) => set({ corner_radius: v === undefined || v === 0 ? undefined : v }, "radius")}
      />
      <RepeatFields
        doc={doc}
        layer={layer}
        onRepeat={(repeat) => set({ repeat: repeat && stripUndefined(repeat) }, "repeat")}
      />
    </section>
  );
}

export const stackForm = defineLayerForm<StackLayerT>({
  type: "stack",
  label: (layer) => `${layer.direction ?? "column"} stack`,
  icon: (layer) => ((layer.direction ?? "column") === "row" ? "⇻" : "☰"),
  Form: StackForm,
  creators: [
    {
      id: "stack",
      label: "Stack",
      icon: "☰",
      group: "more",
      idBase: "stack",
      heightShare: 0.4,
      maxHeight: 320,
      // A column with a title and a line under it: what a stack is for shows at once.
      make: (id, box) => ({
        id,
        type: "stack",
        ...box,
        gap: 12,
        padding: 16,
        fill: "#F3F4F6",
        corner_radius: 12,
        layers: [
          {
            id: `${id}-title`,
            type: "text",
            x: 0,
            y: 0,
            width: box.width,
            height: 40,
            text: "Title",
            font: { family: "Inter", size: 32, weight: 700 },
            color: "#111827",
            layout: { width: "fill", height: "hug" },
          },
          {
            id: `${id}-text`,
            type: "text",
            x: 0,
            y: 0,
            width: box.width,
            height: 30,
            text: "A line below that moves up when the title is empty",
            font: { family: "Inter", size: 20 },
            color: "#374151",
            layout: { width: "fill", height: "hug" },
          },
        ],
      }),
    },
  ],
});
