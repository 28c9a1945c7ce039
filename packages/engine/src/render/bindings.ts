import type { ListItemValue, RenderWarning, SlotValue, SlotValues } from "../api.ts";
import type { VisibleWhenT } from "../document/common.ts";
import type { InlineStylesT } from "../document/inline-styles.ts";
import type { SlotT, TemplateDocumentT } from "../document/schema.ts";
import type { ValueFormatT } from "../document/value-format.ts";
import { formatDate, formatNumber } from "../format/format-value.ts";
import { noteColorBindings } from "./color-bindings.ts";

/** A property value after slot binding, with where it came from. */
export interface Resolved<T> {
  value: T;
  /** The slot the property is bound to, or null when unbound. */
  slot: string | null;
  /** JSON path to report when the value is bad: `values.<slot>` for request values, else the design path. */
  path: string;
}

/** Bindings of a repeated stack's children name a field of the current list item: `item.<field>`. */
export const ITEM_BINDING_PREFIX = "item.";

/** The list item a repeated layer is drawn for, with the list slot it came from. */
interface ItemScope {
  item: ListItemValue;
  /** The list slot (for paths in errors and warnings). */
  slot: string;
  /** The item's index in the list. */
  index: number;
}

/**
 * Resolves bound properties against the request's slot values. Shared by `planImages` and `render`
 * so both see the same image sources. Records `slot_default_used` once per slot (on the first layer that used
 * the default), however many layers the slot is bound on.
 *
 * Layers read a value by its slot type: `resolve` for text, image and colour properties (a number or
 * date slot shown as text gives its text: `72`, `2026-11-28`), `number` for a property bound to a
 * number slot (progress values), `list` for one bound to a list slot (chart data, repeats). Inside a
 * repeated stack, `forItem` gives the bindings of one item's copy, where `item.<field>` names its fields.
 */
export class Bindings {
  private readonly slots: Map<string, SlotT>;
  private readonly values: SlotValues;
  private readonly warnings: RenderWarning[] | null;
  private readonly reported: Set<string>;
  private readonly scope: ItemScope | null;
  /** The template's locale (numbers and dates formatted by `formatted`). */
  readonly locale: string | undefined;
  /** The template's named inline styles (tags of its rich text). */
  readonly inlineStyles: InlineStylesT | undefined;

  constructor(
    document: Pick<TemplateDocumentT, "slots" | "locale" | "inline_styles">,
    values: SlotValues,
    warnings: RenderWarning[] | null,
    scope: ItemScope | null = null,
    reported: Set<string> = new Set(),
  ) {
    this.slots = new Map(document.slots.map((slot) => [slot.name, slot]));
    this.values = values;
    this.warnings = warnings;
    this.scope = scope;
    this.reported = reported;
    this.locale = document.locale;
    this.inlineStyles = document.inline_styles;
    noteColorBindings(document);
  }

  /** The bindings of one item's copy of a repeated stack's children (warnings are shared). */
  forItem(slot: string, item: ListItemValue, index: number): Bindings {
    return new Bindings(
      {
        slots: [...this.slots.values()],
        ...(this.locale === undefined ? {} : { locale: this.locale }),
        ...(this.inlineStyles === undefined ? {} : { inline_styles: this.inlineStyles }),
      },
      this.values,
      this.warnings,
      { item, slot, index },
      this.reported,
    );
  }

  /** A text, image or colour property: the bound slot's value as text, else the design value. */
  resolve<T extends string | null>(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: T,
    designPath: string,
    layerId: string | null,
  ): Resolved<T | string> {
    const found = this.resolveValue(bind, property, designValue, designPath, layerId);
    return found.value === designValue ? (found as Resolved<T>) : { ...found, value: textOf(found.value) };
  }

  /**
   * A text property shown through a `format`: a number (a number slot's, or an item's number field)
   * formatted as the format says, a date slot's value as a date; anything else as `resolve` gives it.
   */
  formatted(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: string,
    designPath: string,
    layerId: string | null,
    format: ValueFormatT | undefined,
  ): Resolved<string> {
    const found = this.resolveValue(bind, property, designValue, designPath, layerId);
    if (format !== undefined && typeof found.value === "number") {
      return { ...found, value: formatNumber(found.value, format, this.locale) };
    }
    if (format !== undefined && typeof found.value === "string" && this.slotType(found.slot) === "date") {
      const date = formatDate(found.value, format, this.locale);
      if (date !== null) return { ...found, value: date };
    }
    return { ...found, value: textOf(found.value) };
  }

  /**
   * A number property (bound to a number slot, or to a number field of a list item): the value given,
   * else the slot's default, else the design value.
   */
  number(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: number,
    designPath: string,
    layerId: string | null,
  ): Resolved<number> {
    const found = this.resolveValue(bind, property, designValue, designPath, layerId);
    return typeof found.value === "number" ? (found as Resolved<number>) : { ...found, value: designValue };
  }

  /** A list property (bound to a list slot): the items given, else the slot's default, else the design's. */
  list(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: readonly ListItemValue[],
    designPath: string,
    layerId: string | null,
  ): Resolved<readonly ListItemValue[]> {
    const found = this.resolveValue(bind, property, designValue, designPath, layerId);
    return Array.isArray(found.value)
      ? (found as Resolved<readonly ListItemValue[]>)
      : { ...found, value: designValue };
  }

  /** The bound property's value as given (text, number or items), else the default, else the design's. */
  resolveValue<T extends SlotValue | null>(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: T,
    designPath: string,
    layerId: string | null,
  ): Resolved<T | SlotValue> {
    const slot = bind?.[property];
    if (slot === undefined) return { value: designValue, slot: null, path: designPath };
    if (slot.startsWith(ITEM_BINDING_PREFIX)) return this.itemField(slot, designValue, designPath);
    const given = Object.hasOwn(this.values, slot) ? this.values[slot] : undefined;
    if (given !== undefined) return { value: given, slot, path: `values.${slot}` };
    const fallback = this.slots.get(slot)?.default;
    if (fallback === undefined) return { value: designValue, slot, path: designPath };
    this.reportDefault(slot, layerId);
    return { value: fallback, slot, path: `slots.${slot}.default` };
  }

  /** The type of the named slot (`number`, `date`, ...), or null for an item field or no slot. */
  slotType(slot: string | null): SlotT["type"] | null {
    return slot === null ? null : (this.slots.get(slot)?.type ?? null);
  }

  /** Whether the named slot holds rich text (its values are markup, document/rich-text.ts). */
  isRich(slot: string | null): boolean {
    if (slot === null) return false;
    const declared = this.slots.get(slot);
    return declared?.type === "text" && declared.rich === true;
  }

  /**
   * The value a slot (or, in a repeated copy, `item.<field>`) has in this render for conditions, as
   * text: the request's, else the slot's default, else empty; a list with no items is empty. Records
   * no warning (a condition reads a slot; it does not draw it).
   */
  slotValue(slot: string): string {
    if (slot.startsWith(ITEM_BINDING_PREFIX)) return textOf(this.itemField(slot, "", "").value);
    const given = Object.hasOwn(this.values, slot) ? this.values[slot] : undefined;
    return textOf(given ?? this.slots.get(slot)?.default ?? "");
  }

  /** Whether a layer's `visible_when` condition holds. */
  holds(condition: VisibleWhenT): boolean {
    const value = this.slotValue(condition.slot);
    if ("equals" in condition) return value === condition.equals;
    return condition.is === "empty" ? value.trim() === "" : value.trim() !== "";
  }

  private itemField<T extends SlotValue | null>(
    binding: string,
    designValue: T,
    designPath: string,
  ): Resolved<T | SlotValue> {
    const field = binding.slice(ITEM_BINDING_PREFIX.length);
    const scope = this.scope;
    if (scope === null || !Object.hasOwn(scope.item, field))
      return { value: designValue, slot: null, path: designPath };
    return {
      value: scope.item[field] as string | number,
      slot: scope.slot,
      path: `values.${scope.slot}[${scope.index}].${field}`,
    };
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

/**
 * A value as text: numbers as JavaScript writes them (`72`, `0.5`, `1e+21`), a list as empty when it
 * has no items, else its item count (lists are shown through repeats and charts, not as text).
 */
export function textOf(value: SlotValue | null): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (value === null) return "";
  return value.length === 0 ? "" : String(value.length);
}
