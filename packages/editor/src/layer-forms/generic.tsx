import { BindSelect } from "../controls/BindSelect.tsx";
import { JsonView, PaintField } from "../controls/fields.tsx";
import type { Layer } from "../engine/engine-types.ts";
import type { PaintValue } from "../model/paint-view.ts";
import { COMMON_KEYS } from "./common.tsx";
import { defineLayerForm, type LayerForm, type LayerFormProps } from "./types.ts";

/** The value at a dotted property path (`stroke.color`), or undefined. */
function valueAt(layer: Layer, path: string): unknown {
  let value: unknown = layer;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A patch setting a dotted property path, copying the objects along it. */
function patchAt(layer: Layer, path: string, value: unknown): Partial<Layer> {
  const set = (target: unknown, keys: string[]): unknown => {
    const [key, ...rest] = keys;
    if (key === undefined) return value;
    const object = (target ?? {}) as Record<string, unknown>;
    return { ...object, [key]: set(object[key], rest) };
  };
  const [top, ...rest] = path.split(".");
  if (top === undefined) return {};
  return { [top]: set((layer as unknown as Record<string, unknown>)[top], rest) } as Partial<Layer>;
}

function isPaint(value: unknown): value is PaintValue {
  return typeof value === "string" || (value !== null && typeof value === "object" && "type" in value);
}

/**
 * The form of a layer kind the editor has no controls for yet (new v2 kinds, or a type this build
 * does not know). From the engine's registry it knows the kind's bindable properties: each gets a
 * slot picker, and a colour property holding a solid colour is edited as one (a gradient is shown).
 * Everything else of the kind is read-only JSON. The common properties above stay editable, and no
 * edit drops the kind's own properties (a patch is merged into the layer).
 */
function GenericForm({ doc, layer, onLayer, kinds }: LayerFormProps) {
  const own = Object.fromEntries(Object.entries(layer).filter(([key]) => !COMMON_KEYS.has(key)));
  const bindable = Object.entries(kinds.bindable[layer.type] ?? {});
  return (
    <section data-testid="generic-form">
      <h3>{layer.type}</h3>
      <p className="muted small">
        This layer type has no controls in the editor yet; its properties are shown as is.
      </p>
      {bindable.map(([prop, type]) => {
        const value = valueAt(layer, prop);
        return (
          <div key={prop} className="field compact">
            {type === "color" && isPaint(value) ? (
              <PaintField
                label={prop}
                testId={`prop-${prop}`}
                value={value}
                onChange={(v) => v !== null && onLayer(patchAt(layer, prop, v), prop)}
              />
            ) : (
              <span>{prop}</span>
            )}
            <BindSelect
              prop={prop}
              type={type}
              slots={doc.slots}
              bind={layer.bind}
              onChange={(bind) => onLayer({ bind }, "bind")}
            />
          </div>
        );
      })}
      <JsonView label="Properties (read-only)" value={own} testId="prop-json" />
    </section>
  );
}

/** The fallback entry: a label and an icon, with the generic form. */
export function readOnlyForm(label: string, icon: string): LayerForm {
  return defineLayerForm<Layer>({ type: label, label: () => label, icon: () => icon, Form: GenericForm });
}
