import type { ListItemValue, ListSlotT } from "../engine/engine-types.ts";

interface Props {
  slot: ListSlotT;
  items: readonly ListItemValue[] | undefined;
  /** Undefined: no items given (the slot's default, or the design's values, are drawn). */
  onItems(items: readonly ListItemValue[] | undefined): void;
}

/**
 * A list slot's preview items as rows, one input per field: what a repeated stack draws once per item
 * and a chart plots. A number field's text that is not a number is left out of the item (the engine
 * would refuse it).
 */
export function ListItemsField({ slot, items, onItems }: Props) {
  const rows = items ?? [];
  const limit = Math.min(slot.max_items ?? 100, 100);
  const setField = (row: number, field: string, text: string, isNumber: boolean) => {
    const next = rows.map((item, i) => {
      if (i !== row) return item;
      const copy: Record<string, string | number> = { ...item };
      const number = Number(text);
      if (text === "") delete copy[field];
      else if (isNumber) {
        if (Number.isFinite(number)) copy[field] = number;
      } else copy[field] = text;
      return copy;
    });
    onItems(next);
  };
  return (
    <div className="list-items" data-testid={`preview-${slot.name}`}>
      {rows.map((item, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides their position
        <div className="list-item row" key={row} data-testid="list-item">
          {slot.fields.map((field) => (
            <input
              key={field.name}
              className={field.type === "color" ? "mono" : ""}
              type={field.type === "number" ? "number" : "text"}
              step="any"
              aria-label={`${field.name} of item ${row + 1}`}
              placeholder={`${field.name}${field.required ? " *" : ""}`}
              value={item[field.name] ?? ""}
              onChange={(e) => setField(row, field.name, e.target.value, field.type === "number")}
            />
          ))}
          <button
            type="button"
            className="icon-btn"
            title="Remove item"
            onClick={() => {
              const next = rows.filter((_, i) => i !== row);
              onItems(next.length === 0 ? undefined : next);
            }}
          >
            ✕
          </button>
        </div>
      ))}
      <div className="row">
        <button
          type="button"
          className="btn small"
          data-testid={`add-item-${slot.name}`}
          disabled={rows.length >= limit}
          onClick={() => onItems([...rows, {}])}
        >
          + Item
        </button>
        <span className="muted small">
          {rows.length} of at most {limit}
        </span>
      </div>
    </div>
  );
}
