import { type Static, Type as T } from "@sinclair/typebox";
import { MAX_LIST_ITEMS, SlotName } from "./common.ts";
import { TextLayer } from "./layers/text.ts";

/**
 * A stack's `repeat`: its children are drawn once per item of a list slot, in order, with `item.<field>`
 * bindings reading that item's fields (`bind: { text: "item.name" }`, `visible_when: { slot:
 * "item.photo", is: "non_empty" }`). At most `max` items are drawn (default: the list's own limit);
 * when there are more, the `more` text layer follows them with `{n}` in its text replaced by how many
 * were left out ("and {n} more").
 */
export const Repeat = T.Object(
  {
    /** The list slot whose items are repeated. */
    slot: SlotName,
    max: T.Optional(T.Integer({ minimum: 1, maximum: MAX_LIST_ITEMS })),
    /** Shown after the items when some were left out: `{n}` in its text is their number. */
    more: T.Optional(TextLayer),
  },
  { additionalProperties: false },
);

export type RepeatT = Static<typeof Repeat>;

/** `item.<field>`: a binding (or condition) that reads a field of the repeated item. */
export const ITEM_PREFIX = "item.";
