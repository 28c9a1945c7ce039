/**
 * Editing rich text slot markup (`<b> <i> <u> <s> <color value="#RRGGBB">`, `<br>`, the template's
 * named inline styles `<em>`, kept as they are) as plain text
 * with a style per character: typing splices characters (a new one takes the style of the one
 * before it), the toolbar styles a range, and the result is written back as the documented markup.
 * Pure; the parse itself is the engine's `parseRichText` (its runs are the input here).
 */

export interface CharStyle {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  color: string | null;
  /** The template's named inline styles around the character, outermost first (absent: none). */
  styles?: readonly string[];
}

export interface StyledText {
  text: string;
  /** One style per UTF-16 unit of `text`. */
  styles: CharStyle[];
}

export const PLAIN: CharStyle = { bold: false, italic: false, underline: false, strike: false, color: null };

export function fromRuns(
  runs: readonly ({ text: string } & Omit<CharStyle, "styles"> & {
      styles?: readonly string[] | undefined;
    })[],
): StyledText {
  let text = "";
  const styles: CharStyle[] = [];
  for (const r of runs) {
    text += r.text;
    const style = {
      bold: r.bold,
      italic: r.italic,
      underline: r.underline,
      strike: r.strike,
      color: r.color,
      ...(r.styles === undefined ? {} : { styles: r.styles }),
    };
    for (let i = 0; i < r.text.length; i++) styles.push(style);
  }
  return { text, styles };
}

function same(a: CharStyle, b: CharStyle): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.strike === b.strike &&
    a.color === b.color &&
    (a.styles ?? []).join(" ") === (b.styles ?? []).join(" ")
  );
}

function escapeMarkup(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("\n", "<br>");
}

/** Markup for styled text: each run of one style wrapped in its tags (colour outermost). */
export function toMarkup(value: StyledText): string {
  let out = "";
  let i = 0;
  while (i < value.text.length) {
    const style = value.styles[i] ?? PLAIN;
    let j = i + 1;
    while (j < value.text.length && same(value.styles[j] ?? PLAIN, style)) j++;
    // Named styles outermost, as written; the built-in tags inside them.
    const open: string[] = (style.styles ?? []).map((name) => `<${name}>`);
    if (style.color) open.push(`<color value="${style.color}">`);
    if (style.bold) open.push("<b>");
    if (style.italic) open.push("<i>");
    if (style.underline) open.push("<u>");
    if (style.strike) open.push("<s>");
    const close = open
      .slice()
      .reverse()
      .map((t) => (t.startsWith("<color") ? "</color>" : `</${t.slice(1)}`));
    out += open.join("") + escapeMarkup(value.text.slice(i, j)) + close.join("");
    i = j;
  }
  return out;
}

/**
 * The styled text after the plain text became `next` (one edit: the common start and end are
 * kept, what is between is replaced; inserted characters take the style before them).
 */
export function spliceText(value: StyledText, next: string): StyledText {
  const prev = value.text;
  let start = 0;
  while (start < prev.length && start < next.length && prev[start] === next[start]) start++;
  let end = 0;
  while (
    end < prev.length - start &&
    end < next.length - start &&
    prev[prev.length - 1 - end] === next[next.length - 1 - end]
  )
    end++;
  const inserted = next.length - start - end;
  const carry = value.styles[start - 1] ?? value.styles[start] ?? PLAIN;
  const styles = [
    ...value.styles.slice(0, start),
    ...Array.from({ length: inserted }, () => carry),
    ...value.styles.slice(prev.length - end),
  ];
  return { text: next, styles };
}

export type StyleFlag = "bold" | "italic" | "underline" | "strike";

/** Toggles a flag over [from, to): set everywhere unless every character already has it. */
export function toggleFlag(value: StyledText, from: number, to: number, flag: StyleFlag): StyledText {
  if (to <= from) return value;
  const all = value.styles.slice(from, to).every((s) => s[flag]);
  return {
    text: value.text,
    styles: value.styles.map((s, i) => (i >= from && i < to ? { ...s, [flag]: !all } : s)),
  };
}

/** Colours [from, to) (null: back to the layer's paint). */
export function setColor(value: StyledText, from: number, to: number, color: string | null): StyledText {
  if (to <= from) return value;
  return {
    text: value.text,
    styles: value.styles.map((s, i) => (i >= from && i < to ? { ...s, color } : s)),
  };
}
