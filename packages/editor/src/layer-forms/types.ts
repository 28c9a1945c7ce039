import type { ComponentType } from "react";
import type { Layer, SlotT, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";

export type SlotType = SlotT["type"];

/** Applies a patch to the selected layer; edits with the same key coalesce into one undo step. */
export type LayerPatch = (patch: Partial<Layer>, coalesceKey: string) => void;

/** What the engine's registry says about layer kinds, read from the engine module at run time. */
export interface KindInfo {
  /** Layer type (and "frame") -> bindable property path -> the slot type it takes. */
  bindable: Readonly<Record<string, Readonly<Record<string, SlotType>>>>;
  /** Blend modes a layer may use, in the engine's order. */
  blendModes: readonly string[];
}

export interface LayerFormProps<L = Layer> {
  doc: TemplateDocumentT;
  layer: L;
  onLayer: LayerPatch;
  kinds: KindInfo;
}

/** One layer type's entry in the properties panel and the layers panel. */
export interface LayerForm<L = Layer> {
  /** Heading of the properties panel ("text", "ellipse"). */
  label(layer: L): string;
  /** One character for the layers panel. */
  icon(layer: L): string;
  /** The kind's own properties, below the common ones every layer has. */
  Form: ComponentType<LayerFormProps<L>>;
  /**
   * When the layer draws nothing as it stands (an image without a source), the words the editor
   * shows in its outline over the canvas; null otherwise. Kinds that always draw leave it out.
   */
  emptyNote?(layer: L, doc: TemplateDocumentT, values: SlotValues): string | null;
}

/**
 * A form for one layer type, typed by that type's layer. The registry looks forms up by
 * `layer.type`, so the form only ever receives its own kind.
 */
export function defineLayerForm<L extends Layer>(form: LayerForm<L>): LayerForm {
  return form as unknown as LayerForm;
}

/** A patch that also replaces the layer's bindings when a paint edit moved them (see PaintEditor). */
export function withRebind<P extends object>(
  patch: P,
  rebind: { bind: Record<string, string> | undefined } | undefined,
): P {
  return rebind ? { ...patch, bind: rebind.bind } : patch;
}
