import type { SlotValues } from "../api.ts";
import type { TemplateDocumentT } from "../document/schema.ts";
import type { SlotValueError } from "../document/values.ts";
import { Bindings } from "./bindings.ts";
import { forEachDrawnLayer } from "./drawn-layers.ts";
import { findFrame } from "./geometry.ts";
import { kindOf } from "./painters/registry.ts";

/**
 * Slot values that the frame's drawn layers cannot show although their type is right: a QR code too
 * long for its error correction level, letters for an EAN-13 barcode. Pure and cheap (no drawing): hosts
 * run it before charging for a render, so a bad value is refused instead of drawing a blank.
 */
export function checkRenderValues(
  document: TemplateDocumentT,
  frame: string | undefined,
  values: SlotValues,
): SlotValueError[] {
  const { frame: found, path } = findFrame(document, frame);
  const bindings = new Bindings(document, values, null);
  const errors: SlotValueError[] = [];
  forEachDrawnLayer(found.layers, path, bindings, (layer, layerPath) => {
    for (const error of kindOf(layer).checkValues?.(layer, layerPath, bindings) ?? []) errors.push(error);
  });
  return errors;
}
