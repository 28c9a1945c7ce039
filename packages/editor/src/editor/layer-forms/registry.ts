import type { Layer } from "../../engine/engine-types.ts";
import { readOnlyForm } from "./generic.tsx";
import { groupForm } from "./group.tsx";
import { imageForm } from "./image.tsx";
import { shapeForm } from "./shape.tsx";
import { textForm } from "./text.tsx";
import type { LayerForm } from "./types.ts";

/**
 * The editor's one table of layer types, as the engine's layers/registry.ts is the engine's: the
 * properties form and the layers-panel icon of each type. A type with controls has a file in this
 * folder; the others use the read-only form (JSON of their own properties) until they get one. A
 * type missing here (a newer engine's) still opens, with the read-only form and a "?" icon.
 */
const FORMS: ReadonlyMap<string, LayerForm> = new Map(
  Object.entries({
    text: textForm,
    image: imageForm,
    shape: shapeForm,
    group: groupForm,
    line: readOnlyForm("line", "╱"),
    polygon: readOnlyForm("polygon", "⬟"),
    star: readOnlyForm("star", "★"),
    path: readOnlyForm("path", "✎"),
    icon: readOnlyForm("icon", "☺"),
    qr: readOnlyForm("QR code", "▦"),
    barcode: readOnlyForm("barcode", "║"),
    rating: readOnlyForm("rating", "☆"),
  }),
);

export function formOf(layer: Layer): LayerForm {
  return FORMS.get(layer.type) ?? readOnlyForm(String(layer.type), "?");
}

export function layerIcon(layer: Layer): string {
  return formOf(layer).icon(layer);
}

export function layerLabel(layer: Layer): string {
  return formOf(layer).label(layer);
}
