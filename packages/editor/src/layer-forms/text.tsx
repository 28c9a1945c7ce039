import type { TextLayerT } from "@pictor/engine";
import { BindSelect } from "../controls/BindSelect.tsx";
import { CheckField, NumberField, SelectField, TextField } from "../controls/fields.tsx";
import { FontPicker } from "../controls/font-picker/FontPicker.tsx";
import { useFontFamilies } from "../controls/font-picker/font-families.ts";
import { PaintEditor } from "../controls/paint/paint.tsx";
import { StrokeEditor } from "../controls/paint/stroke.tsx";
import { HighlightEditor } from "../controls/paint/text-highlight.tsx";
import { TextPathEditor } from "../controls/text-path.tsx";
import { defineLayerForm, type LayerFormProps, withRebind } from "./types.ts";
import { ValueFormatFields } from "./value-format-fields.tsx";

function TextForm({ doc, layer, onLayer }: LayerFormProps<TextLayerT>) {
  const { families, reload } = useFontFamilies();
  const family = families.find((f) => f.family === layer.font.family);
  const set = (patch: Partial<TextLayerT>, key: string) => onLayer(patch, key);
  const font = (patch: Partial<TextLayerT["font"]>, key: string) =>
    set({ font: { ...layer.font, ...patch } }, key);
  const onBind = (bind: Record<string, string> | undefined) => set({ bind }, "bind");
  const weights = [...new Set((family?.faces ?? [{ weight: 400 }]).map((f) => String(f.weight)))];
  const styles = [...new Set((family?.faces ?? [{ style: "normal" as const }]).map((f) => f.style))];
  return (
    <section>
      <h3>Text</h3>
      <TextField
        label="Content"
        testId="prop-text"
        multiline
        value={layer.text}
        onChange={(text) => set({ text }, "text")}
      />
      <BindSelect prop="text" type="text" slots={doc.slots} bind={layer.bind} onChange={onBind} />
      <ValueFormatFields doc={doc} layer={layer} onFormat={(format) => set({ format }, "format")} />
      <FontPicker
        value={layer.font.family}
        families={families.length ? families : [{ family: layer.font.family, faces: [] }]}
        onChange={(familyName) => {
          // Keep the weight and style when the new family has them, else take its first face.
          const next = families.find((f) => f.family === familyName);
          const has = next?.faces.some(
            (f) => f.weight === (layer.font.weight ?? 400) && f.style === (layer.font.style ?? "normal"),
          );
          const first = next?.faces[0];
          font(
            has || !first
              ? { family: familyName }
              : { family: familyName, weight: first.weight, style: first.style },
            "family",
          );
        }}
        onUploaded={(uploaded) => {
          reload();
          font({ family: uploaded }, "family");
        }}
      />
      <div className="grid2">
        <SelectField
          label="Weight"
          testId="prop-font-weight"
          value={String(layer.font.weight ?? 400)}
          options={
            weights.includes(String(layer.font.weight ?? 400))
              ? weights
              : [String(layer.font.weight ?? 400), ...weights]
          }
          onChange={(w) => font({ weight: Number(w) }, "weight")}
        />
        <SelectField
          label="Style"
          testId="prop-font-style"
          value={layer.font.style ?? "normal"}
          options={[...new Set([layer.font.style ?? "normal", ...styles, "normal", "italic"] as const)]}
          onChange={(style) => font({ style }, "style")}
        />
        <NumberField
          label="Size"
          testId="prop-font-size"
          value={layer.font.size}
          min={0.1}
          max={2000}
          onChange={(v) => v !== undefined && font({ size: v }, "size")}
        />
        <NumberField
          label="Line height"
          value={layer.font.line_height ?? 1.2}
          min={0.1}
          max={10}
          step={0.05}
          onChange={(v) => font({ line_height: v }, "lh")}
        />
        <NumberField
          label="Letter sp."
          value={layer.font.letter_spacing ?? 0}
          min={-100}
          max={1000}
          step={0.5}
          onChange={(v) => font({ letter_spacing: v }, "ls")}
        />
        <NumberField
          label="Max lines"
          value={layer.max_lines}
          optional
          min={1}
          max={1000}
          step={1}
          onChange={(v) => set({ max_lines: v === undefined ? undefined : Math.round(v) }, "maxlines")}
        />
        <NumberField
          label="Paragraph sp."
          value={layer.paragraph_spacing ?? 0}
          min={0}
          max={1000}
          onChange={(v) => set({ paragraph_spacing: v || undefined }, "paragraph")}
        />
      </div>
      <PaintEditor
        label="Colour"
        testId="prop-color"
        value={layer.color}
        onChange={(color, rebind) => color !== null && set(withRebind({ color }, rebind), "color")}
        bindProp="color"
        slots={doc.slots}
        bind={layer.bind}
        onBind={onBind}
      />
      <div className="grid2">
        <SelectField
          label="Align"
          value={layer.align ?? "left"}
          options={["left", "center", "right", "justify"] as const}
          onChange={(align) => set({ align }, "align")}
        />
        <SelectField
          label="Vertical"
          value={layer.vertical_align ?? "top"}
          options={["top", "middle", "bottom"] as const}
          onChange={(vertical_align) => set({ vertical_align }, "valign")}
        />
        <SelectField
          label="Fit"
          testId="prop-fit"
          value={layer.fit ?? "none"}
          options={["none", "shrink", "fill"] as const}
          onChange={(fit) => set({ fit }, "fit")}
        />
        <NumberField
          label="Min size"
          value={layer.min_size}
          optional
          min={0.1}
          max={2000}
          onChange={(v) => set({ min_size: v }, "minsize")}
        />
        {layer.fit === "fill" && (
          <NumberField
            label="Max size"
            value={layer.max_size}
            optional
            min={0.1}
            max={2000}
            onChange={(v) => set({ max_size: v }, "maxsize")}
          />
        )}
        <SelectField
          label="Case"
          testId="prop-transform"
          value={layer.transform ?? "none"}
          options={["none", "uppercase", "lowercase", "title"] as const}
          onChange={(transform) =>
            set({ transform: transform === "none" ? undefined : transform }, "transform")
          }
        />
      </div>
      <div className="grid2">
        <CheckField
          label="Underline"
          testId="prop-underline"
          value={layer.underline === true}
          onChange={(v) => set({ underline: v || undefined }, "underline")}
        />
        <CheckField
          label="Strikethrough"
          testId="prop-strikethrough"
          value={layer.strikethrough === true}
          onChange={(v) => set({ strikethrough: v || undefined }, "strike")}
        />
      </div>
      <StrokeEditor
        label="Text stroke"
        prop="stroke"
        optional
        value={layer.stroke}
        initial={{ color: "#FFFFFF", width: 2 }}
        maxWidth={200}
        slots={doc.slots}
        bind={layer.bind}
        onChange={(stroke, rebind) => set(withRebind({ stroke: stroke ?? undefined }, rebind), "stroke")}
        onBind={onBind}
      />
      {layer.on_path === undefined && (
        <HighlightEditor
          value={layer.highlight}
          slots={doc.slots}
          bind={layer.bind}
          onChange={(highlight, rebind) => set(withRebind({ highlight }, rebind), "highlight")}
          onBind={onBind}
        />
      )}
      <TextPathEditor layer={layer} onChange={set} />
    </section>
  );
}

export const textForm = defineLayerForm<TextLayerT>({
  type: "text",
  label: () => "text",
  icon: () => "T",
  Form: TextForm,
  creators: [
    {
      id: "text",
      label: "Text",
      icon: "T",
      group: "tools",
      key: "T",
      idBase: "text",
      heightShare: 0.2,
      maxHeight: 120,
      make: (id, box) => ({
        id,
        type: "text",
        ...box,
        text: "Your headline",
        font: { family: "Inter", weight: 700, size: 48 },
        color: "#111827",
        // Auto height, as design tools make a dragged text box: the width drawn, the height its text's.
        layout: { height: "hug" },
      }),
    },
  ],
});
