import type { SlotT } from "../engine/engine-types.ts";
import { useNewSlot } from "./new-slot.ts";
import { useRepeatList } from "./repeat-item.ts";

/** The bind menu's entry that makes a new slot from the layer's current content. */
const NEW_SLOT = "+new"; // never a slot name (the schema allows no "+")

interface Props {
  prop: string;
  /** Shown after the link sign (what is bound, when the property's own label is not next to it). */
  label?: string;
  type: SlotT["type"];
  slots: readonly SlotT[];
  bind: Record<string, string> | undefined;
  onChange(bind: Record<string, string> | undefined): void;
}

/** A text property also shows a number or date (through the text layer's format). */
const fits = (expected: SlotT["type"], actual: SlotT["type"]) =>
  actual === expected || (expected === "text" && (actual === "number" || actual === "date"));

/**
 * Binds one layer property to a slot of the matching type (or unbinds it); inside a repeating stack,
 * to a field of the repeated item (`item.<field>`) too. "+ New slot from this layer" makes a slot
 * of that type holding the layer's current content and binds the property to it.
 */
export function BindSelect({ prop, label, type, slots, bind, onChange }: Props) {
  const current = bind?.[prop] ?? "";
  const list = useRepeatList();
  const fields = (list?.fields ?? []).filter((f) => fits(type, f.type)).map((f) => `item.${f.name}`);
  const candidates = slots.filter((s) => fits(type, s.type));
  const newSlot = useNewSlot();
  return (
    <label className="bind" title={`Bind ${prop} to a ${type} slot`}>
      <span aria-hidden="true">⚯</span>
      {label && <span className="bind-label">{label}</span>}
      <select
        aria-label={label ?? `Bind ${prop} to a ${type} slot`}
        data-testid={`bind-${prop}`}
        value={current}
        onChange={(e) => {
          if (e.target.value === NEW_SLOT) {
            newSlot?.(prop, type);
            return;
          }
          const next = { ...(bind ?? {}) };
          if (e.target.value === "") delete next[prop];
          else next[prop] = e.target.value;
          onChange(Object.keys(next).length > 0 ? next : undefined);
        }}
      >
        <option value="">{candidates.length + fields.length === 0 ? `no ${type} slot` : "not bound"}</option>
        {fields.map((field) => (
          <option key={field} value={field}>
            {field}
          </option>
        ))}
        {candidates.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
          </option>
        ))}
        {newSlot && <option value={NEW_SLOT}>+ New slot from this layer</option>}
      </select>
    </label>
  );
}
