import type { TextLayerT } from "../../engine/engine-types.ts";
import { BindSelect } from "../BindSelect.tsx";
import { NumberField, PaintField, SelectField, TextField } from "../fields.tsx";
import { useFontFamilies } from "../font-families.ts";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function TextForm({ doc, layer, onLayer }: LayerFormProps<TextLayerT>) {
  const families = useFontFamilies();
  const family = families.find((f) => f.family === layer.font.family);
  const set = (patch: Partial<TextLayerT>, key: string) => onLayer(patch, key);
  const font = (patch: Partial<TextLayerT["font"]>, key: string) =>
    set({ font: { ...layer.font, ...patch } }, key);
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
      <BindSelect
        prop="text"
        type="text"
        slots={doc.slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
      />
      <SelectField
        label="Font"
        testId="prop-font-family"
        value={layer.font.family}
        options={families.length ? families.map((f) => f.family) : [layer.font.family]}
        onChange={(familyName) => font({ family: familyName }, "family")}
      />
      <div className="grid2">
        <SelectField
          label="Weight"
          value={String(layer.font.weight ?? 400)}
          options={[...new Set((family?.faces ?? [{ weight: 400 }]).map((f) => String(f.weight)))]}
          onChange={(w) => font({ weight: Number(w) }, "weight")}
        />
        <SelectField
          label="Style"
          value={layer.font.style ?? "normal"}
          options={["normal", "italic"] as const}
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
      </div>
      <PaintField
        label="Colour"
        testId="prop-color"
        value={layer.color}
        onChange={(color) => color && set({ color }, "color")}
      />
      <BindSelect
        prop="color"
        type="color"
        slots={doc.slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
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
          options={["none", "shrink"] as const}
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
        <SelectField
          label="Transform"
          value={layer.transform ?? "none"}
          options={["none", "uppercase"] as const}
          onChange={(transform) => set({ transform }, "transform")}
        />
      </div>
    </section>
  );
}

export const textForm = defineLayerForm<TextLayerT>({
  label: () => "text",
  icon: () => "T",
  Form: TextForm,
});
