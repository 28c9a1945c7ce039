import { CheckField, NumberField, SelectField, TextField } from "../controls/fields.tsx";
import type { SlotT } from "../engine/engine-types.ts";

type NumberSlot = Extract<SlotT, { type: "number" }>;
type DateSlot = Extract<SlotT, { type: "date" }>;
type ListSlot = Extract<SlotT, { type: "list" }>;
type ListField = ListSlot["fields"][number];

interface Props<S extends SlotT> {
  slot: S;
  onUpdate(patch: Partial<S>, key: string): void;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const FIELD_TYPES = ["text", "number", "image", "color"] as const;

/** A number slot: its default and the range of values a request may give. */
export function NumberSlotFields({ slot, onUpdate }: Props<NumberSlot>) {
  return (
    <>
      <NumberField
        label="Default"
        optional
        value={slot.default}
        onChange={(d) => onUpdate({ default: d }, "default")}
      />
      <div className="grid2">
        <NumberField label="Min" optional value={slot.min} onChange={(min) => onUpdate({ min }, "min")} />
        <NumberField label="Max" optional value={slot.max} onChange={(max) => onUpdate({ max }, "max")} />
      </div>
    </>
  );
}

/** A date slot: its default, ISO 8601 (a calendar date, or a date and time). */
export function DateSlotFields({ slot, onUpdate }: Props<DateSlot>) {
  return (
    <TextField
      label="Default (ISO 8601: 2026-11-28 or 2026-11-28T18:30:00Z)"
      value={slot.default ?? ""}
      onChange={(d) => (d === "" || ISO_DATE.test(d)) && onUpdate({ default: d || undefined }, "default")}
    />
  );
}

/**
 * A list slot: the fields of its items (name, type, required) and the most items a value may hold.
 * Its sample items are edited in the Preview tab, then saved as the template's sample.
 */
export function ListSlotFields({ slot, onUpdate }: Props<ListSlot>) {
  const setField = (i: number, patch: Partial<ListField>) =>
    onUpdate({ fields: slot.fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) }, `field-${i}`);
  const unique = (base: string) => {
    let name = base;
    for (let n = 2; slot.fields.some((f) => f.name === name); n++) name = `${base}${n}`;
    return name;
  };
  return (
    <>
      <NumberField
        label="At most (items, ≤ 100)"
        optional
        value={slot.max_items}
        min={1}
        max={100}
        step={1}
        onChange={(v) => onUpdate({ max_items: v === undefined ? undefined : Math.round(v) }, "max-items")}
      />
      <h4>Item fields</h4>
      {slot.fields.map((field, i) => (
        <div className="row list-field" key={field.name} data-testid="list-field">
          <input
            className="mono"
            aria-label="Field name"
            defaultValue={field.name}
            onBlur={(e) => {
              const name = e.target.value.trim();
              if (FIELD_NAME.test(name) && !slot.fields.some((f, j) => j !== i && f.name === name)) {
                setField(i, { name });
              }
            }}
          />
          <SelectField
            label=""
            value={field.type}
            options={FIELD_TYPES}
            onChange={(type) => setField(i, { type, ...(type === "text" ? {} : { max_length: undefined }) })}
          />
          <CheckField
            label="required"
            value={field.required === true}
            onChange={(required) => setField(i, { required: required || undefined })}
          />
          <button
            type="button"
            className="icon-btn"
            title="Remove field"
            disabled={slot.fields.length === 1}
            onClick={() => onUpdate({ fields: slot.fields.filter((_, j) => j !== i) }, "fields")}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn small"
        data-testid={`add-field-${slot.name}`}
        disabled={slot.fields.length >= 20}
        onClick={() =>
          onUpdate({ fields: [...slot.fields, { name: unique("field"), type: "text" }] }, "fields")
        }
      >
        + Field
      </button>
    </>
  );
}
