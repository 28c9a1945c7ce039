import type { RenderWarning, SlotValues } from "../api.ts";
import type { VisibleWhenT } from "../document/common.ts";
import type { SlotT, TemplateDocumentT } from "../document/schema.ts";

/** A property value after slot binding, with where it came from. */
export interface Resolved<T> {
  value: T;
  /** The slot the property is bound to, or null when unbound. */
  slot: string | null;
  /** JSON path to report when the value is bad: `values.<slot>` for request values, else the design path. */
  path: string;
}

/**
 * Resolves bound properties against the request's slot values. Shared by `planImages` and `render`
 * so both see the same image sources. Records `slot_default_used` once per slot (on the first layer that used
 * the default), however many layers the slot is bound on.
 */
export class Bindings {
  private readonly slots: Map<string, SlotT>;
  private readonly values: SlotValues;
  private readonly warnings: RenderWarning[] | null;
  private readonly reported = new Set<string>();

  constructor(document: TemplateDocumentT, values: SlotValues, warnings: RenderWarning[] | null) {
    this.slots = new Map(document.slots.map((slot) => [slot.name, slot]));
    this.values = values;
    this.warnings = warnings;
  }

  resolve<T extends string | null>(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: T,
    designPath: string,
    layerId: string | null,
  ): Resolved<T | string> {
    const slot = bind?.[property];
    if (slot === undefined) return { value: designValue, slot: null, path: designPath };
    const given = Object.hasOwn(this.values, slot) ? this.values[slot] : undefined;
    if (given !== undefined) return { value: given, slot, path: `values.${slot}` };
    const fallback = this.slots.get(slot)?.default;
    if (fallback === undefined) return { value: designValue, slot, path: designPath };
    this.reportDefault(slot, layerId);
    return { value: fallback, slot, path: `slots.${slot}.default` };
  }

  /** Whether the named slot holds rich text (its values are markup, document/rich-text.ts). */
  isRich(slot: string | null): boolean {
    if (slot === null) return false;
    const declared = this.slots.get(slot);
    return declared?.type === "text" && declared.rich === true;
  }

  /**
   * The value a slot has in this render for conditions: the request's, else the slot's default, else
   * empty. Records no warning (a condition reads a slot; it does not draw it).
   */
  slotValue(slot: string): string {
    const given = Object.hasOwn(this.values, slot) ? this.values[slot] : undefined;
    return given ?? this.slots.get(slot)?.default ?? "";
  }

  /** Whether a layer's `visible_when` condition holds. */
  holds(condition: VisibleWhenT): boolean {
    const value = this.slotValue(condition.slot);
    if ("equals" in condition) return value === condition.equals;
    return condition.is === "empty" ? value.trim() === "" : value.trim() !== "";
  }

  private reportDefault(slot: string, layerId: string | null): void {
    if (this.warnings === null || this.reported.has(slot)) return;
    this.reported.add(slot);
    this.warnings.push({
      code: "slot_default_used",
      slot,
      layer: layerId,
      message: `Slot "${slot}" was not given; its default value was used.`,
    });
  }
}
