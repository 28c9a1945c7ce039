import type { Layer } from "../engine/engine-types.ts";
import { barcodeForm } from "./barcode.tsx";
import { readOnlyForm } from "./generic.tsx";
import { groupForm } from "./group.tsx";
import { iconForm } from "./icon.tsx";
import { imageForm } from "./image.tsx";
import { lineForm } from "./line.tsx";
import { pathForm } from "./path.tsx";
import { polygonForm } from "./polygon.tsx";
import { qrForm } from "./qr.tsx";
import { ratingForm } from "./rating.tsx";
import { shapeForm } from "./shape.tsx";
import { starForm } from "./star.tsx";
import { textForm } from "./text.tsx";
import type { LayerForm } from "./types.ts";

/**
 * The editor's one table of layer types, as the engine's layers/registry.ts is the engine's: the
 * properties form and the layers-panel icon of each type. A type with controls has a file in this
 * folder. A type missing here (a newer engine's) still opens, with the read-only form (JSON of its
 * own properties) and a "?" icon.
 */
const FORMS: ReadonlyMap<string, LayerForm> = new Map(
  Object.entries({
    text: textForm,
    image: imageForm,
    shape: shapeForm,
    group: groupForm,
    line: lineForm,
    polygon: polygonForm,
    star: starForm,
    path: pathForm,
    icon: iconForm,
    qr: qrForm,
    barcode: barcodeForm,
    rating: ratingForm,
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
