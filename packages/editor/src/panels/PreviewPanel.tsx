import { useState } from "react";
import { AssetPicker } from "../controls/AssetPicker.tsx";
import { NumberField, SelectField } from "../controls/fields.tsx";
import type {
  ListItemValue,
  RenderWarning,
  SlotT,
  SlotValue,
  SlotValues,
  TemplateDocumentT,
} from "../engine/engine-types.ts";
import { ListItemsField } from "./ListItemsField.tsx";
import { isNote } from "./warning-kinds.ts";

interface Props {
  doc: TemplateDocumentT;
  values: SlotValues;
  onValues(values: SlotValues): void;
  onSaveSample(): void;
  warnings: { frame: string; warnings: RenderWarning[]; imageErrors: string[]; error: string | null }[];
  /** The API render scale the warnings are for (the canvas's zoom plays no part). */
  scale: number;
  onScale(scale: number): void;
}

/**
 * Sample values drawn on the canvas exactly as the API would draw them (same engine, same
 * shrink-to-fit and truncation); the engine's warnings for each frame are listed below.
 */
export function PreviewPanel({ doc, values, onValues, onSaveSample, warnings, scale, onScale }: Props) {
  const [picking, setPicking] = useState<SlotT | null>(null);
  const set = (slot: SlotT, value: SlotValue | undefined) => {
    const next = { ...values };
    if (value === "" || value === undefined) delete next[slot.name];
    else next[slot.name] = value;
    onValues(next);
  };
  const text = (slot: SlotT) => {
    const value = values[slot.name];
    return typeof value === "string" ? value : "";
  };
  return (
    <div className="props">
      {picking && (
        <AssetPicker
          folder={picking.type === "image" ? picking.folder : undefined}
          onClose={() => setPicking(null)}
          onPick={(id) => {
            set(picking, id);
            setPicking(null);
          }}
        />
      )}
      <section>
        <h3>Preview values</h3>
        <p className="muted small">
          Empty means “not sent”: the slot's default or the designer's value is drawn.
        </p>
        {doc.slots.length === 0 && <p className="muted small">Define slots first (Slots tab).</p>}
        {doc.slots.map((s) => (
          // biome-ignore lint/a11y/noLabelWithoutControl: the control is one of two elements below
          <label className="field" key={s.name}>
            <span>
              {s.name} <span className="muted small">{s.type === "color" ? "colour" : s.type}</span>
              {s.type === "text" && s.max_length ? (
                <span className="muted small"> · ≤ {s.max_length}</span>
              ) : null}
            </span>
            {s.type === "text" ? (
              <textarea
                rows={2}
                data-testid={`preview-${s.name}`}
                value={text(s)}
                placeholder={s.default ?? ""}
                onChange={(e) => set(s, e.target.value)}
              />
            ) : s.type === "number" ? (
              <NumberField
                label=""
                optional
                testId={`preview-${s.name}`}
                value={typeof values[s.name] === "number" ? (values[s.name] as number) : undefined}
                min={s.min}
                max={s.max}
                onChange={(n) => set(s, n)}
              />
            ) : s.type === "list" ? (
              <ListItemsField
                slot={s}
                items={Array.isArray(values[s.name]) ? (values[s.name] as ListItemValue[]) : undefined}
                onItems={(items) => set(s, items)}
              />
            ) : s.type === "image" ? (
              <div className="field-with-button">
                <input
                  data-testid={`preview-${s.name}`}
                  value={text(s)}
                  placeholder={s.default ?? "ast_… or https://…"}
                  onChange={(e) => set(s, e.target.value)}
                />
                <button type="button" className="btn small" onClick={() => setPicking(s)}>
                  Library
                </button>
              </div>
            ) : (
              <input
                className={s.type === "color" ? "mono" : ""}
                data-testid={`preview-${s.name}`}
                value={text(s)}
                placeholder={
                  s.default ?? (s.type === "color" ? "#RRGGBB" : "2026-11-28 or 2026-11-28T18:30:00Z")
                }
                onChange={(e) => set(s, e.target.value)}
              />
            )}
          </label>
        ))}
        <div className="row">
          <button type="button" className="btn small" onClick={onSaveSample}>
            Save as the template's sample
          </button>
          <button type="button" className="btn small ghost" onClick={() => onValues({})}>
            Clear
          </button>
        </div>
      </section>
      <section>
        <h3>Engine warnings</h3>
        <SelectField
          label="As an API render at scale"
          testId="warnings-scale"
          value={String(scale)}
          options={["1", "1.5", "2", "3", "4"]}
          onChange={(v) => onScale(Number(v))}
        />
        <ul className="warnings" data-testid="warnings">
          {warnings.flatMap((w) => [
            ...(w.error
              ? [
                  <li key={`${w.frame}-error`} className="error">
                    {w.frame}: {w.error}
                  </li>,
                ]
              : []),
            ...w.imageErrors.map((m) => (
              <li key={`${w.frame}-${m}`} className="error">
                {w.frame}: {m}
              </li>
            )),
            ...w.warnings.map((x) => (
              <li key={`${w.frame}-${x.code}-${x.layer ?? ""}-${x.message}`}>
                <span className={`badge ${isNote(x) ? "note" : "warn"}`}>{x.code}</span>{" "}
                <span className="muted small">{w.frame}</span> {x.message}
              </li>
            )),
          ])}
          {warnings.every((w) => w.warnings.length === 0 && w.imageErrors.length === 0 && !w.error) && (
            <li className="muted small">No warnings: the API will draw these values as shown.</li>
          )}
        </ul>
      </section>
    </div>
  );
}
