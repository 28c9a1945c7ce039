import { ITEM_PREFIX } from "../repeat.ts";
import { isRecord } from "../validate-paths.ts";
import { copyProperties, setProperty } from "./copy.ts";

/**
 * Version 3 -> 4. Version 4 changes one meaning: a colour binding without an `alpha` option keeps the
 * alpha of the design colour it replaces (a 40 % brand tint stays 40 %), where version 3 drew the
 * slot's `#RRGGBB` opaque. Colour slot values (and colour fields of list items) are always `#RRGGBB`,
 * so "opaque" is exactly `"alpha": 1`: the step writes it into `bind_colors` for every property bound
 * to a colour slot or colour item field that has no `alpha` yet, keeping any `tint`: on frames and
 * layers (duotone filter colours included, they are bound in the layer's `bind`) and on named inline
 * styles (`inline_styles.<name>.bind`). Duotone options were not applied in version 3, so theirs
 * become exactly `"alpha": 1`.
 *
 * It is written wherever a colour is bound, not only where the design colour is translucent: the
 * colour a binding replaces is not always in the document (a painter's default, a gradient's first
 * stop, an animated value), so judging where it matters would be a guess; this way every v3 document
 * renders byte for byte as it did (render-node's v3-identity test over the v3 examples, v2-identity
 * over the older ones migrated through every step, and every engine golden drawn from its migrated
 * document). Malformed parts are carried over unchanged for v4 validation to report.
 */
export function upgradeV3ToV4(doc: Record<string, unknown>): Record<string, unknown> {
  const out = copyProperties(doc, { version: 4 }, ["version"]);
  const slots = slotTypes(doc.slots);
  if (Array.isArray(doc.frames))
    out.frames = doc.frames.map((frame) => withOpaqueBindings(frame, slots, null));
  // Style by style: a style's name ("bind", "repeat") must not be read as a property of an owner.
  const styles = doc.inline_styles;
  if (isRecord(styles)) {
    const migrated: Record<string, unknown> = {};
    for (const name of Object.keys(styles)) {
      setProperty(migrated, name, withOpaqueBindings(styles[name], slots, null));
    }
    out.inline_styles = migrated;
  }
  return out;
}

const DUOTONE_PREFIX = "filters.duotone.";

interface SlotInfo {
  type: unknown;
  /** A list slot's field name -> field type. */
  fields: Map<string, unknown>;
}

function slotTypes(slots: unknown): Map<string, SlotInfo> {
  const byName = new Map<string, SlotInfo>();
  if (!Array.isArray(slots)) return byName;
  for (const slot of slots) {
    if (!isRecord(slot) || typeof slot.name !== "string" || byName.has(slot.name)) continue;
    const fields = new Map<string, unknown>();
    if (Array.isArray(slot.fields)) {
      for (const field of slot.fields) {
        if (isRecord(field) && typeof field.name === "string" && !fields.has(field.name)) {
          fields.set(field.name, field.type);
        }
      }
    }
    byName.set(slot.name, { type: slot.type, fields });
  }
  return byName;
}

/**
 * `value` with `"alpha": 1` added for each colour binding of every object in it that has `bind`.
 * `items`: the fields of the list a surrounding stack repeats (what `item.<field>` reads), or null.
 */
function withOpaqueBindings(
  value: unknown,
  slots: Map<string, SlotInfo>,
  items: Map<string, unknown> | null,
): unknown {
  if (Array.isArray(value)) return value.map((item) => withOpaqueBindings(item, slots, items));
  if (!isRecord(value)) return value;
  const repeat = value.repeat;
  const inner =
    isRecord(repeat) && typeof repeat.slot === "string" ? (slots.get(repeat.slot)?.fields ?? null) : items;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    setProperty(out, key, key === "bind" ? value[key] : withOpaqueBindings(value[key], slots, inner));
  }
  if (!isRecord(value.bind)) return out;
  // Malformed options are left as they are, for validation to report.
  if (value.bind_colors !== undefined && !isRecord(value.bind_colors)) return out;
  const options = isRecord(value.bind_colors) ? value.bind_colors : undefined;
  let colors: Record<string, unknown> | undefined;
  for (const [property, slot] of Object.entries(value.bind)) {
    if (!isColorSlot(slot, slots, items)) continue;
    const own = options !== undefined && Object.hasOwn(options, property) ? options[property] : undefined;
    if (own !== undefined && !isRecord(own)) continue;
    // Version 3 drew duotone colours as the slot gave them whatever their options said: exactly
    // `"alpha": 1` without a tint (v4 applies the tint, and refuses another alpha there).
    const duotone = property.startsWith(DUOTONE_PREFIX);
    if (!duotone && own !== undefined && own.alpha !== undefined) continue;
    colors ??= copyProperties(options ?? {}, {}, []);
    setProperty(
      colors,
      property,
      duotone ? { alpha: 1 } : copyProperties(own ?? {}, { alpha: 1 }, ["alpha"]),
    );
  }
  if (colors !== undefined) out.bind_colors = colors;
  return out;
}

function isColorSlot(
  slot: unknown,
  slots: Map<string, SlotInfo>,
  items: Map<string, unknown> | null,
): boolean {
  if (typeof slot !== "string") return false;
  if (slot.startsWith(ITEM_PREFIX)) return items?.get(slot.slice(ITEM_PREFIX.length)) === "color";
  return slots.get(slot)?.type === "color";
}
