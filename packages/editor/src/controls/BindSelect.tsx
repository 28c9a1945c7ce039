import type { SlotT } from "../engine/engine-types.ts";

interface Props {
  prop: string;
  /** Shown after the link sign (what is bound, when the property's own label is not next to it). */
  label?: string;
  type: SlotT["type"];
  slots: readonly SlotT[];
  bind: Record<string, string> | undefined;
  onChange(bind: Record<string, string> | undefined): void;
}

/** Binds one layer property to a slot of the matching type (or unbinds it). */
export function BindSelect({ prop, label, type, slots, bind, onChange }: Props) {
  const current = bind?.[prop] ?? "";
  const candidates = slots.filter((s) => s.type === type);
  return (
    <label className="bind" title={`Bind ${prop} to a ${type} slot`}>
      <span aria-hidden="true">⚯</span>
      {label && <span className="bind-label">{label}</span>}
      <select
        aria-label={label ?? `Bind ${prop} to a ${type} slot`}
        data-testid={`bind-${prop}`}
        value={current}
        onChange={(e) => {
          const next = { ...(bind ?? {}) };
          if (e.target.value === "") delete next[prop];
          else next[prop] = e.target.value;
          onChange(Object.keys(next).length > 0 ? next : undefined);
        }}
      >
        <option value="">{candidates.length === 0 ? `no ${type} slot` : "not bound"}</option>
        {candidates.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}
