import type { TextLayerT } from "../layers/text.ts";

// A word starts after whitespace, a hyphen, a slash, an opening bracket or quote (not after an
// apostrophe: "don't" stays "Don't").
const WORD_START = /(^|[\s\-/([{"“‘«])(\p{Ll})/gu;

/**
 * The text as shown for a layer's `transform`. Locale-independent (the same in every host): no
 * Turkish dotted i, one rule for every script with case.
 */
export function applyLetterCase(text: string, transform: TextLayerT["transform"]): string {
  switch (transform) {
    case "uppercase":
      return text.toUpperCase();
    case "lowercase":
      return text.toLowerCase();
    case "title":
      return text.replace(
        WORD_START,
        (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`,
      );
    default:
      return text;
  }
}
