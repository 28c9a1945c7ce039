import type { ColorBindingT } from "../document/common.ts";
import type { Resolved } from "./bindings.ts";
import { parseHexColor } from "./color.ts";

// Each `bind` object of a document -> its owner's `bind_colors`: painters resolve a property through
// the `bind` they hold, so the options are found from it without every painter passing them.
const optionsByBind = new WeakMap<object, Readonly<Record<string, ColorBindingT>>>();
const walked = new WeakSet<object>();

/**
 * Notes the `bind_colors` of every frame, layer and named inline style of a document (once per
 * document object).
 */
export function noteColorBindings(document: object): void {
  if (walked.has(document)) return;
  walked.add(document);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const owner = value as { bind?: unknown; bind_colors?: unknown };
    if (typeof owner.bind === "object" && owner.bind !== null && typeof owner.bind_colors === "object") {
      optionsByBind.set(owner.bind, owner.bind_colors as Record<string, ColorBindingT>);
    }
    for (const child of Object.values(value)) if (typeof child === "object") visit(child);
  };
  visit((document as { frames?: unknown }).frames);
  visit((document as { inline_styles?: unknown }).inline_styles);
}

/**
 * Notes the options of a `bind` made while drawing (a repeated stack's copy of a layer, whose `bind`
 * keeps the bindings to slots): its template's `bind_colors` still apply to them.
 */
export function noteCopiedColorBindings(bind: object, options: object | undefined): void {
  if (options !== undefined) optionsByBind.set(bind, options as Record<string, ColorBindingT>);
}

/**
 * A bound colour slot's value as the binding applies it: tinted toward white or black, then with the
 * alpha the binding sets, or (`"design"`, also when the binding sets none) the alpha of the design
 * colour it replaces; the slot's own alpha where there is no design colour. Slot colours are
 * `#RRGGBB`, so a document that wants them opaque says `"alpha": 1` (what the 3 -> 4 migration writes).
 */
export function applyColorBinding(
  bind: object | undefined,
  property: string,
  slotColor: string,
  designColor: string | null,
): string {
  if (!/^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/.test(slotColor)) return slotColor;
  const options = (bind === undefined ? undefined : optionsByBind.get(bind)?.[property]) ?? {};
  const [r = 0, g = 0, b = 0, a = 1] = parseHexColor(slotColor, property);
  const tint = options.tint ?? 0;
  const alpha =
    options.alpha === undefined || options.alpha === "design"
      ? designColor === null
        ? a
        : (parseHexColor(designColor, property)[3] ?? 1)
      : options.alpha;
  // The slot's colour as it came: nothing to apply, and no re-encoding of it.
  if (tint === 0 && alpha === a) return slotColor;
  const toward = tint >= 0 ? 1 : 0;
  const mix = (channel: number) => channel + (toward - channel) * Math.abs(tint);
  const hex = (unit: number) =>
    Math.round(Math.min(1, Math.max(0, unit)) * 255)
      .toString(16)
      .padStart(2, "0")
      .toUpperCase();
  return `#${hex(mix(r))}${hex(mix(g))}${hex(mix(b))}${hex(alpha)}`;
}

/**
 * A resolved colour property with its binding applied (`applyColorBinding`) when a slot supplied it;
 * a literal, or no value, as found.
 */
export function withColorBinding<T extends string | null>(
  found: Resolved<T>,
  bind: object | undefined,
  property: string,
  designColor: string | null,
): Resolved<T | string> {
  if (found.slot === null || found.value === null) return found;
  return { ...found, value: applyColorBinding(bind, property, found.value, designColor) };
}
