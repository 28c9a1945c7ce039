import type { SlotValue } from "../../api.ts";
import type { LayerAnimationT } from "../../document/animation.ts";
import type { SlotT } from "../../document/schema.ts";

/** A layer being evaluated at one moment: a private copy the effects change in place. */
export interface MotionLayer {
  type: string;
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation?: number;
  opacity?: number;
  blur?: number;
  visible?: boolean;
  bind?: Record<string, string>;
  [property: string]: unknown;
}

/** What an effect may read and add besides its layer. */
export interface MotionScene {
  frameWidth: number;
  frameHeight: number;
  /** The slot a property of the layer is bound to (not list item fields), or null. */
  boundSlot(layer: MotionLayer, property: string): SlotT | null;
  /** A slot's value in this render: the request's, else the slot's default. */
  valueOf(slot: string): SlotValue | undefined;
  /** The names of the document's inline styles (tags of its rich text). */
  inlineStyles: ReadonlySet<string>;
  /** Adds a slot holding `value` for this moment only, and returns its name (for one layer's binding). */
  addSlot(slot: SlotT, value: SlotValue): string;
}

/**
 * One enter/exit effect. `away` is how far the layer is from its design: 0 is the layer as designed
 * (never called then), 1 fully away (before an enter starts, after an exit ends).
 */
export interface AnimationPreset {
  /** The layer types it applies to (validation refuses others); null: every type. */
  kinds: readonly string[] | null;
  apply(layer: MotionLayer, away: number, animation: LayerAnimationT, scene: MotionScene): void;
}
