import type { BarcodeLayerT } from "@pictor/engine";
import { CheckField, NumberField, SelectField } from "../controls/fields.tsx";
import { CodedValueFields } from "./coded.tsx";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function BarcodeForm({ doc, layer, onLayer }: LayerFormProps<BarcodeLayerT>) {
  const set = (patch: Partial<BarcodeLayerT>, key: string) => onLayer(patch, key);
  return (
    <section>
      <h3>Barcode</h3>
      <SelectField
        label="Symbology"
        testId="prop-symbology"
        value={layer.symbology ?? "code128"}
        options={[
          { value: "code128", label: "Code 128 (text)" },
          { value: "ean13", label: "EAN-13 (12-13 digits)" },
          { value: "upca", label: "UPC-A (11-12 digits)" },
        ]}
        onChange={(symbology) => set({ symbology }, "symbology")}
      />
      <CodedValueFields
        layer={layer}
        slots={doc.slots}
        valueLabel="Value"
        defaultColor="#000000"
        onChange={set}
      />
      <div className="grid2">
        <NumberField
          label="Quiet zone (modules)"
          value={layer.quiet_zone}
          optional
          min={0}
          max={50}
          step={1}
          onChange={(v) => set({ quiet_zone: v === undefined ? undefined : Math.round(v) }, "quiet")}
        />
        <NumberField
          label="Text size"
          value={layer.font?.size}
          optional
          min={0.1}
          max={2000}
          onChange={(size) =>
            set(
              {
                font:
                  size === undefined && !layer.font
                    ? undefined
                    : { family: layer.font?.family ?? "Inter", size },
              },
              "fsize",
            )
          }
        />
      </div>
      <CheckField
        label="Show the value under the bars"
        testId="prop-show-text"
        value={layer.show_text !== false}
        onChange={(v) => set({ show_text: v ? undefined : false }, "showtext")}
      />
    </section>
  );
}

export const barcodeForm = defineLayerForm<BarcodeLayerT>({
  type: "barcode",
  label: () => "barcode",
  icon: () => "║",
  Form: BarcodeForm,
  creators: [
    {
      id: "barcode",
      label: "Barcode",
      icon: "║",
      group: "more",
      idBase: "barcode",
      heightShare: 0.2,
      maxHeight: 120,
      make: (id, box) => ({ id, type: "barcode", ...box, value: "PICTOR-2026" }),
    },
  ],
});
