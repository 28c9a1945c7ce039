import type { FrameT, Layer, TemplateDocumentT } from "../engine/engine-types.ts";
import { uniqueId } from "./doc-ops.ts";

/** Where a new layer goes, in frame pixels. */
export interface NewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What adding a layer of a kind makes: its defaults and its default size. Each kind's entry in
 * layer-forms/<kind>.tsx holds its own (see `LayerCreator` there); nothing here names a kind.
 */
export interface NewLayerSpec<L extends Layer = Layer> {
  /** Base of the new layer's id (`rect` -> rect-1). */
  idBase: string;
  /** Default height as a share of the frame's, and at most (text lines are short, pictures tall). */
  heightShare: number;
  maxHeight: number;
  /** The layer with its kind's defaults in `box` (the default box, or one dragged out on a frame). */
  make(id: string, box: NewBox): L;
}

/** The largest square centred in a box (icons, QR codes, stars are drawn square). */
export function square(box: NewBox): NewBox {
  const side = Math.min(box.width, box.height);
  return {
    x: Math.round(box.x + (box.width - side) / 2),
    y: Math.round(box.y + (box.height - side) / 2),
    width: side,
    height: side,
  };
}

/**
 * A new layer of a spec's kind with a fresh id, 40 % of the frame wide (at most 480 px), centred on
 * `at` or on the frame.
 */
export function newLayer(
  doc: TemplateDocumentT,
  frame: FrameT,
  spec: NewLayerSpec,
  at?: { x: number; y: number },
): Layer {
  const width = Math.round(Math.min(frame.width * 0.4, 480));
  const height = Math.round(Math.min(frame.height * spec.heightShare, spec.maxHeight));
  const x = Math.round(at ? at.x - width / 2 : (frame.width - width) / 2);
  const y = Math.round(at ? at.y - height / 2 : (frame.height - height) / 2);
  return spec.make(uniqueId(doc, spec.idBase), { x, y, width, height });
}
