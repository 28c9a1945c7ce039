import type { TextLayerT } from "../document/layers/text.ts";

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

// What decides a word start in the title case above, for the last character of the previous run.
const BEFORE_WORD = /[\s\-/([{"“‘«]/u;

/**
 * `applyLetterCase` over styled runs, as over their joined text: a word split across runs
 * (`<b>Hel</b>lo`) is one word, so title case capitalises only its first letter.
 */
export function applyLetterCaseToRuns<R extends { text: string }>(
  runs: readonly R[],
  transform: TextLayerT["transform"],
): R[] {
  if (transform === undefined || transform === "none") return [...runs];
  let previous = "";
  return runs.map((run) => {
    // Title case reads the character before a letter; carry the previous run's last one as context.
    const context = previous === "" ? "" : BEFORE_WORD.test(previous) ? " " : "x";
    previous = run.text.at(-1) ?? previous;
    return { ...run, text: applyLetterCase(context + run.text, transform).slice(context.length) };
  });
}
