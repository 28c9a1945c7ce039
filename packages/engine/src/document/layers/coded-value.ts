import type { SlotValueError } from "../values.ts";
import type { BoundValue, LayerBase, LayerDefinition, PropertyValues } from "./kind.ts";

/**
 * What the machine-readable kinds (QR codes, barcodes) share: a `value` bindable to a text slot that the
 * symbology may refuse. Their modules are drawn by render/painters/coded-value.ts.
 */
export interface CodedLayer extends LayerBase {
  value: string;
}

/** The layer's value after binding (the request's, the slot's default, or the design value). */
export function boundValue(layer: CodedLayer, path: string, values: PropertyValues): BoundValue {
  return values.resolve(layer.bind, "value", layer.value, `${path}.value`, layer.id);
}

/**
 * `validate` and `checkValues` of a kind whose value may not be encodable. `problem` says why a
 * value cannot be encoded (null when it can). An unbound design value is checked when the document is
 * validated (error at `<layer>.value`); a bound value when a render's values are checked, before
 * anything is charged (`unencodable`, naming the slot). An empty value draws nothing and is accepted.
 */
export function encodableValueChecks<L extends CodedLayer>(
  problem: (layer: L, value: string) => string | null,
): Required<Pick<LayerDefinition<L>, "validate" | "checkValues">> {
  return {
    validate(layer, path) {
      if (layer.bind?.value !== undefined || layer.value === "") return [];
      const message = problem(layer, layer.value);
      return message === null ? [] : [{ path: `${path}.value`, message }];
    },
    checkValues(layer, path, values): SlotValueError[] {
      const value = boundValue(layer, path, values);
      if (value.slot === null || value.value === "") return [];
      const message = problem(layer, value.value);
      if (message === null) return [];
      return [{ path: value.path, slot: value.slot, kind: "unencodable", message }];
    },
  };
}
