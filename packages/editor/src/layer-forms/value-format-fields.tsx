import type { TextLayerT, ValueFormatT } from "@pictor/engine";
import { SelectField, TextField } from "../controls/fields.tsx";
import { NumberStyleFields } from "../controls/number-format.tsx";
import { useRepeatList } from "../controls/repeat-item.ts";
import type { TemplateDocumentT } from "../engine/engine-types.ts";
import { stripUndefined } from "../model/doc-ops.ts";

interface Props {
  doc: TemplateDocumentT;
  layer: TextLayerT;
  onFormat(format: ValueFormatT | undefined): void;
}

const DATE_STYLES = ["none", "full", "long", "medium", "short"] as const;
const TIME_STYLES = ["none", "medium", "short"] as const;

/**
 * How a text bound to a number or a date shows it (decimals, grouping, percent, currency, compact,
 * prefix and suffix; date and time styles) and in which locale (the template's unless given). Shown
 * only while the text is bound to a number or date slot, or to an item's number field.
 */
export function ValueFormatFields({ doc, layer, onFormat }: Props) {
  const list = useRepeatList();
  const bound = layer.bind?.text;
  const kind = bound?.startsWith("item.")
    ? list?.fields.find((f) => `item.${f.name}` === bound)?.type
    : doc.slots.find((s) => s.name === bound)?.type;
  if (kind !== "number" && kind !== "date") return null;
  const format = layer.format ?? {};
  const set = (patch: Partial<ValueFormatT>) => {
    const next = stripUndefined({ ...format, ...patch });
    onFormat(Object.keys(next).length === 0 ? undefined : next);
  };
  return (
    <>
      <h4>{kind === "number" ? "Number format" : "Date format"}</h4>
      {kind === "number" ? (
        <NumberStyleFields format={format} set={set} testId="prop-format" />
      ) : (
        <div className="grid2">
          <SelectField
            label="Date"
            testId="prop-format-date"
            value={format.date ?? (format.time === undefined ? "medium" : "none")}
            options={DATE_STYLES}
            onChange={(date) => set({ date: date === "none" ? undefined : date, parts: undefined })}
          />
          <SelectField
            label="Time"
            testId="prop-format-time"
            value={format.time ?? "none"}
            options={TIME_STYLES}
            onChange={(time) => set({ time: time === "none" ? undefined : time, parts: undefined })}
          />
        </div>
      )}
      <div className="grid2">
        <TextField
          label="Prefix"
          value={format.prefix ?? ""}
          onChange={(p) => set({ prefix: p || undefined })}
        />
        <TextField
          label="Suffix"
          value={format.suffix ?? ""}
          onChange={(s) => set({ suffix: s || undefined })}
        />
      </div>
      <TextField
        label={`Locale (template's: ${doc.locale ?? "en"})`}
        testId="prop-format-locale"
        placeholder="de-DE, ar-EG, …"
        value={format.locale ?? ""}
        onChange={(locale) => set({ locale: locale || undefined })}
      />
    </>
  );
}
