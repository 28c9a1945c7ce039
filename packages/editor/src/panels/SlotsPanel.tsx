import { CheckField, ColorField, NumberField, TextField } from "../controls/fields.tsx";
import type { SlotT, TemplateDocumentT } from "../engine/engine-types.ts";
import { renameBindings, stripUndefined, uniqueSlotName } from "../model/doc-ops.ts";
import { DateSlotFields, ListSlotFields, NumberSlotFields } from "./data-slot-fields.tsx";

interface Props {
  doc: TemplateDocumentT;
  onDoc(doc: TemplateDocumentT, coalesceKey?: string): void;
}

const SLOT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** The template's inputs: text, image, colour, number, date and list slots that layer properties bind to. */
export function SlotsPanel({ doc, onDoc }: Props) {
  function add(type: SlotT["type"]) {
    const name = uniqueSlotName(doc, type === "color" ? "colour" : type);
    const slot: SlotT =
      type === "color"
        ? { name, type, default: "#6366F1" }
        : type === "list"
          ? { name, type, fields: [{ name: "label", type: "text", required: true }] }
          : ({ name, type } as SlotT);
    onDoc({ ...doc, slots: [...doc.slots, slot] });
  }
  function update(i: number, patch: Partial<SlotT>, key: string) {
    const slots = doc.slots.map((s, j) => (j === i ? (stripUndefined({ ...s, ...patch }) as SlotT) : s));
    onDoc({ ...doc, slots }, `slot-${i}-${key}`);
  }
  function rename(i: number, name: string) {
    const old = doc.slots[i];
    if (!old || !SLOT_NAME.test(name) || doc.slots.some((s, j) => j !== i && s.name === name)) return;
    const renamed = renameBindings(doc, old.name, name);
    onDoc(
      { ...renamed, slots: renamed.slots.map((s, j) => (j === i ? { ...s, name } : s)) },
      `slot-${i}-name`,
    );
  }
  function remove(i: number) {
    const old = doc.slots[i];
    if (!old) return;
    const unbound = renameBindings(doc, old.name, null);
    onDoc({ ...unbound, slots: unbound.slots.filter((_, j) => j !== i) });
  }

  return (
    <div className="props">
      <section>
        <h3>Slots</h3>
        <p className="muted small">
          Slots are what API callers change. Bind a layer property to a slot in the Design tab (⚯).
        </p>
        <div className="row">
          <button type="button" className="btn small" data-testid="add-slot-text" onClick={() => add("text")}>
            + Text
          </button>
          <button
            type="button"
            className="btn small"
            data-testid="add-slot-image"
            onClick={() => add("image")}
          >
            + Image
          </button>
          <button
            type="button"
            className="btn small"
            data-testid="add-slot-color"
            onClick={() => add("color")}
          >
            + Colour
          </button>
          {(["number", "date", "list"] as const).map((type) => (
            <button
              key={type}
              type="button"
              className="btn small"
              data-testid={`add-slot-${type}`}
              onClick={() => add(type)}
            >
              + {type[0]?.toUpperCase()}
              {type.slice(1)}
            </button>
          ))}
        </div>
      </section>
      {doc.slots.map((s, i) => (
        <section key={`${s.type}-${s.name}`} className="slot" data-testid="slot" data-slot={s.name}>
          <div className="slot-head">
            <span className={`badge slot-${s.type}`}>{s.type === "color" ? "colour" : s.type}</span>
            <button type="button" className="icon-btn" title="Delete slot" onClick={() => remove(i)}>
              ✕
            </button>
          </div>
          <SlotNameField name={s.name} onRename={(n) => rename(i, n)} />
          <TextField
            label="Description"
            value={s.description ?? ""}
            onChange={(d) => update(i, { description: d || undefined }, "desc")}
          />
          {s.type === "text" && (
            <>
              <TextField
                label="Default"
                value={s.default ?? ""}
                onChange={(d) => update(i, { default: d === "" ? undefined : d }, "default")}
              />
              <NumberField
                label="Max length"
                optional
                value={s.max_length}
                min={1}
                max={10000}
                step={1}
                onChange={(v) =>
                  update(i, { max_length: v === undefined ? undefined : Math.round(v) }, "max")
                }
              />
              <CheckField
                label="Rich text (<b>, <i>, <u>, <s>, <color>, <br>)"
                testId={`slot-rich-${s.name}`}
                value={s.rich === true}
                onChange={(rich) => update(i, { rich: rich || undefined }, "rich")}
              />
            </>
          )}
          {s.type === "image" && (
            <>
              <TextField
                label="Default (asset id or URL)"
                value={s.default ?? ""}
                onChange={(d) => update(i, { default: d === "" ? undefined : d }, "default")}
              />
              <TextField
                label="Folder (only assets inside it)"
                value={s.folder ?? ""}
                placeholder="e.g. products/"
                onChange={(f) => update(i, { folder: f === "" ? undefined : f }, "folder")}
              />
            </>
          )}
          {s.type === "number" && (
            <NumberSlotFields slot={s} onUpdate={(patch, key) => update(i, patch, key)} />
          )}
          {s.type === "date" && <DateSlotFields slot={s} onUpdate={(patch, key) => update(i, patch, key)} />}
          {s.type === "list" && <ListSlotFields slot={s} onUpdate={(patch, key) => update(i, patch, key)} />}
          {s.type === "color" && (
            <ColorField
              label="Default"
              nullable
              value={s.default ?? null}
              onChange={(c) =>
                (c === null || /^#[0-9A-F]{6}$/i.test(c)) && update(i, { default: c ?? undefined }, "default")
              }
            />
          )}
        </section>
      ))}
    </div>
  );
}

function SlotNameField({ name, onRename }: { name: string; onRename(name: string): void }) {
  return (
    <label className="field">
      <span>Name (used in modifications)</span>
      <input
        className="mono"
        data-testid="slot-name"
        defaultValue={name}
        key={name}
        onBlur={(e) => onRename(e.target.value.trim())}
        onKeyDown={(e) => e.key === "Enter" && (e.target as HTMLInputElement).blur()}
      />
    </label>
  );
}
