import type { QrLayerT } from "@pictor/engine";
import { NumberField, SelectField } from "../controls/fields.tsx";
import { square } from "../model/new-layer.ts";
import { CodedValueFields } from "./coded.tsx";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function QrForm({ doc, layer, onLayer }: LayerFormProps<QrLayerT>) {
  const set = (patch: Partial<QrLayerT>, key: string) => onLayer(patch, key);
  return (
    <section>
      <h3>QR code</h3>
      <CodedValueFields
        layer={layer}
        slots={doc.slots}
        valueLabel="Value (URL or text)"
        defaultColor="#000000"
        onChange={set}
      />
      <div className="grid2">
        <SelectField
          label="Error correction"
          testId="prop-error-correction"
          value={layer.error_correction ?? "M"}
          options={[
            { value: "L", label: "L (7 %)" },
            { value: "M", label: "M (15 %)" },
            { value: "Q", label: "Q (25 %)" },
            { value: "H", label: "H (30 %)" },
          ]}
          onChange={(error_correction) => set({ error_correction }, "ec")}
        />
        <NumberField
          label="Quiet zone (modules)"
          value={layer.quiet_zone ?? 4}
          min={0}
          max={16}
          step={1}
          onChange={(v) => v !== undefined && Number.isInteger(v) && set({ quiet_zone: v }, "quiet")}
        />
      </div>
    </section>
  );
}

export const qrForm = defineLayerForm<QrLayerT>({
  type: "qr",
  label: () => "QR code",
  icon: () => "▦",
  Form: QrForm,
  creators: [
    {
      id: "qr",
      label: "QR code",
      icon: "▦",
      group: "more",
      idBase: "qr",
      heightShare: 0.4,
      maxHeight: 240,
      make: (id, box) => ({ id, type: "qr", ...square(box), value: "https://example.com" }),
    },
  ],
});
