import { type Static, Type as T } from "@sinclair/typebox";
import { ColorBinding, HexColor, SlotName } from "./common.ts";
import { BUILT_IN_TAGS } from "./rich-text.ts";
import type { ValidationError } from "./validate-paths.ts";

/** The most named inline styles a template defines. */
export const MAX_INLINE_STYLES = 32;

/**
 * A named inline style of rich text (`<em>…</em>` draws its runs so): what it sets over the layer's
 * text style, each optional. `color` and `background` are literals or bound to colour slots
 * (`bind: { "color": "brand" }`), so an emphasis can follow the brand colour.
 */
export const InlineStyle = T.Object(
  {
    weight: T.Optional(T.Integer({ minimum: 100, maximum: 900 })),
    style: T.Optional(T.Union([T.Literal("normal"), T.Literal("italic")])),
    color: T.Optional(HexColor),
    /** Drawn behind the run's glyphs (their font's ascent to descent), as a marker pen. */
    background: T.Optional(HexColor),
    /** A multiple of the text's size (it shrinks and grows with the layer's fit). */
    relative_size: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 10 })),
    /** Template px between characters, instead of the layer's. */
    letter_spacing: T.Optional(T.Number({ minimum: -100, maximum: 1000 })),
    underline: T.Optional(T.Boolean()),
    strikethrough: T.Optional(T.Boolean()),
    /** `color` and `background` bound to colour slots. */
    bind: T.Optional(
      T.Object(
        { color: T.Optional(SlotName), background: T.Optional(SlotName) },
        { additionalProperties: false },
      ),
    ),
    /**
     * Alpha or tint applied to the colour slots bound in `bind`, as a layer's `bind_colors`: without
     * an `alpha`, a bound colour keeps the alpha of the literal `color` / `background` it replaces.
     */
    bind_colors: T.Optional(
      T.Object(
        { color: T.Optional(ColorBinding), background: T.Optional(ColorBinding) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Style name (a lower-case tag name) -> style. */
export const InlineStyles = T.Record(T.String({ pattern: "^[a-z][a-z0-9-]{0,31}$" }), InlineStyle, {
  maxProperties: MAX_INLINE_STYLES,
  description: "Named inline styles of rich text: <name>…</name> draws its runs in that style",
});

export type InlineStyleT = Static<typeof InlineStyle>;
export type InlineStylesT = Static<typeof InlineStyles>;

// The names of each document's styles, once.
const namesOf = new WeakMap<object, ReadonlySet<string>>();
const NONE: ReadonlySet<string> = new Set();

/** The tag names a document's rich text may use beside the built-in ones. */
export function inlineStyleNames(doc: { inline_styles?: InlineStylesT | undefined }): ReadonlySet<string> {
  const styles = doc.inline_styles;
  if (styles === undefined) return NONE;
  let names = namesOf.get(styles);
  if (names === undefined) {
    names = new Set(Object.keys(styles));
    namesOf.set(styles, names);
  }
  return names;
}

/**
 * Style names that shadow a built-in tag, bindings to slots that are missing or not colours, and
 * `bind_colors` options for a colour that is not bound.
 */
export function inlineStyleErrors(
  styles: InlineStylesT | undefined,
  slotType: (name: string) => string | undefined,
): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const [name, style] of Object.entries(styles ?? {})) {
    const path = `inline_styles.${name}`;
    if (BUILT_IN_TAGS.includes(name)) {
      errors.push({ path, message: `"${name}" is a built-in tag (<${name}>); name the style otherwise` });
    }
    for (const [property, slot] of Object.entries(style.bind ?? {})) {
      if (slot === undefined) continue;
      const type = slotType(slot);
      if (type === undefined) {
        errors.push({ path: `${path}.bind.${property}`, message: `slot "${slot}" does not exist` });
      } else if (type !== "color") {
        errors.push({
          path: `${path}.bind.${property}`,
          message: `slot "${slot}" is a ${type} slot, but "${property}" needs a color slot`,
        });
      }
    }
    for (const property of Object.keys(style.bind_colors ?? {})) {
      if (style.bind?.[property as "color" | "background"] !== undefined) continue;
      errors.push({
        path: `${path}.bind_colors.${property}`,
        message: `"${property}" is not bound: bind it to a colour slot first`,
      });
    }
  }
  return errors;
}
