import type { Layer } from "../engine/engine-types.ts";
import { barcodeForm } from "./barcode.tsx";
import { chartForm } from "./chart.tsx";
import { readOnlyForm } from "./generic.tsx";
import { groupForm } from "./group.tsx";
import { iconForm } from "./icon.tsx";
import { imageForm } from "./image.tsx";
import { lineForm } from "./line.tsx";
import { pathForm } from "./path.tsx";
import { polygonForm } from "./polygon.tsx";
import { progressForm } from "./progress.tsx";
import { qrForm } from "./qr.tsx";
import { ratingForm } from "./rating.tsx";
import { shapeForm } from "./shape.tsx";
import { stackForm } from "./stack.tsx";
import { starForm } from "./star.tsx";
import { textForm } from "./text.tsx";
import type { LayerCreator, LayerForm } from "./types.ts";

/**
 * The editor's one table of layer types, as the engine's layers/registry.ts is the engine's. Each
 * type's half lives in its own file (layer-forms/<type>.tsx: the properties form, the layers-panel
 * icon, the defaults of a new layer and its tool or menu entry) and is listed here once; the
 * toolbar, the "More" menu, the defaults and the properties panel are derived from this list, in
 * its order. A type missing here (a newer engine's) still opens, with the read-only form (JSON of
 * its own properties) and a "?" icon.
 */
const KINDS: readonly LayerForm[] = [
  textForm,
  imageForm,
  shapeForm,
  groupForm,
  stackForm,
  lineForm,
  polygonForm,
  starForm,
  pathForm,
  iconForm,
  qrForm,
  barcodeForm,
  ratingForm,
  progressForm,
  chartForm,
];

const FORMS: ReadonlyMap<string, LayerForm> = new Map(KINDS.map((form) => [form.type, form]));

/** Every way to add a layer, in the table's order: the toolbar's tools, then the "More" menu's. */
export const CREATORS: readonly LayerCreator[] = KINDS.flatMap((form) => form.creators ?? []);

export const TOOL_CREATORS = CREATORS.filter((c) => c.group === "tools");
export const MENU_CREATORS = CREATORS.filter((c) => c.group === "more");

/** The tool or menu entry with this id (`rectangle`, `rating`). */
export function creatorOf(id: string): LayerCreator | undefined {
  return CREATORS.find((c) => c.id === id);
}

export function formOf(layer: Layer): LayerForm {
  return FORMS.get(layer.type) ?? readOnlyForm(String(layer.type), "?");
}

export function layerIcon(layer: Layer): string {
  return formOf(layer).icon(layer);
}

export function layerLabel(layer: Layer): string {
  return formOf(layer).label(layer);
}
