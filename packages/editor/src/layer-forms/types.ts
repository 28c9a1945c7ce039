import type { ComponentType } from "react";
import type { Layer, SlotT, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import type { NewLayerSpec } from "../model/new-layer.ts";

export type SlotType = SlotT["type"];

/** Applies a patch to the selected layer; edits with the same key coalesce into one undo step. */
export type LayerPatch = (patch: Partial<Layer>, coalesceKey: string) => void;

/** What the engine's registry says about layer kinds, read from the engine module at run time. */
export interface KindInfo {
  /** Layer type (and "frame") -> bindable property path -> the slot type it takes. */
  bindable: Readonly<Record<string, Readonly<Record<string, SlotType>>>>;
  /** Blend modes a layer may use, in the engine's order. */
  blendModes: readonly string[];
  /** Animation preset -> the layer types it applies to (null: every type), in the engine's order. */
  animationPresets: Readonly<Record<string, readonly string[] | null>>;
  /** The numeric properties keyframes may drive. */
  keyframeProperties: readonly string[];
}

export interface LayerFormProps<L extends Layer = Layer> {
  doc: TemplateDocumentT;
  layer: L;
  onLayer: LayerPatch;
  kinds: KindInfo;
}

/**
 * A way to add a layer of a kind: a tool of the toolbar (a drag on a frame creates it; its key picks
 * it) or an entry of the "More" menu (added at the frame's centre). Its `id` names the tool and the
 * menu entry (test ids `tool-<id>`, `add-<id>`); one kind may offer several (rectangle and ellipse).
 */
export interface LayerCreator<L extends Layer = Layer> extends NewLayerSpec<L> {
  id: string;
  /** The tool's or the menu entry's words and symbol. */
  label: string;
  icon: string;
  group: "tools" | "more";
  /** A tool's single-letter key (tools only). */
  key?: string;
  /**
   * Asked first when the layer is added from the menu (the icon kind's icon picker): the properties
   * it gives go over the defaults; closed without a pick, nothing is added.
   */
  Picker?: ComponentType<{ onPick(props: Partial<L>): void; onClose(): void }>;
}

/**
 * One layer type's half in the editor, in layer-forms/<type>.tsx: its entry in the properties panel
 * and the layers panel, and how a new layer of it is made (defaults, tool or menu entry). The
 * registry (registry.ts) lists each once; menus, defaults and the panels are derived from it.
 */
export interface LayerForm<L extends Layer = Layer> {
  /** The layer type it edits (`layer.type`). */
  type: string;
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
  /** How the editor adds a layer of this type; a type without any is only opened and edited. */
  creators?: readonly LayerCreator<L>[];
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
