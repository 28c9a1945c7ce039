/**
 * The inline markup of rich text slots (`"rich": true`): `<b>`, `<i>`, `<u>`, `<s>`,
 * `<color value="#RRGGBB">` (or `#RRGGBBAA`) with their closing tags, `<br>` (also `<br/>`), the
 * template's named inline styles (`<em>`, `<mark>`: document/inline-styles.ts) and the entities
 * `&lt;` `&gt;` `&amp;` `&quot;` for a literal character. Any other tag (`<div>`, `</bold>`) is
 * refused, so a style the template lacks is never drawn as its markup; what is not a tag is plain text
 * drawn as written: `a < b`, `<3`, `<B>`, `&nbsp;`. Tags are lower case; they must nest properly and
 * be closed by the end. Pure: the same parse in validation, in the server and in the browser.
 */

export interface RichRun {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  /** `#RRGGBB` or `#RRGGBBAA` from `<color>`, or null for the layer's paint. */
  color: string | null;
  /** The named inline styles the run is inside, outermost first (absent: none). */
  styles?: string[];
  /** Set from named styles when drawn (render/inline-styles.ts): the weight drawn, instead of `bold`'s. */
  weight?: number;
  /** Multiple of the text's size. */
  relativeSize?: number;
  /** Template px between characters, instead of the layer's. */
  letterSpacing?: number;
  /** `#RRGGBB` or `#RRGGBBAA` drawn behind the run's glyphs. */
  background?: string;
}

/** The tags rich text has whatever the template: a named style cannot take one of these names. */
export const BUILT_IN_TAGS: readonly string[] = ["b", "i", "u", "s", "color", "br"];

const NO_STYLES: ReadonlySet<string> = new Set();

export type RichTextResult =
  | { ok: true; runs: RichRun[] }
  | {
      ok: false;
      /** 1-based character (code point) position of the offending tag in the markup. */
      position: number;
      message: string;
    };

const STYLE_FLAG = { b: "bold", i: "italic", u: "underline", s: "strike" } as const;
const STYLE_TAGS: ReadonlySet<string> = new Set(["b", "i", "u", "s", "color"]);

// A candidate tag: `<`, an optional `/`, a lower-case name, anything up to `>` without another `<`.
const TAG = /<(\/?)([a-z][a-z0-9-]*)([^<>]*)>/y;
const COLOR_VALUE =
  /^\s+value\s*=\s*(?:"(#[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?)"|'(#[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?)')\s*$/;
const ENTITY = /&(lt|gt|amp|quot);/y;
const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"' };

interface OpenTag {
  /** A built-in tag or a named style. */
  name: string;
  /** UTF-16 index of its `<`. */
  index: number;
  color: string | null;
}

/**
 * Parses rich text markup into styled runs, or the first error with its position. `styles`: the
 * names of the template's inline styles, tags beside the built-in ones.
 */
export function parseRichText(markup: string, styles: ReadonlySet<string> = NO_STYLES): RichTextResult {
  const open: OpenTag[] = [];
  const runs: RichRun[] = [];
  let text = "";
  const flush = () => {
    if (text === "") return;
    const style = styleOf(open);
    const last = runs.at(-1);
    if (last !== undefined && sameStyle(last, style)) last.text += text;
    else runs.push({ text, ...style });
    text = "";
  };
  const fail = (index: number, message: string): RichTextResult => ({
    ok: false,
    position: positionOf(markup, index),
    message,
  });

  let i = 0;
  while (i < markup.length) {
    const char = markup[i];
    if (char === "&") {
      ENTITY.lastIndex = i;
      const entity = ENTITY.exec(markup);
      if (entity?.[1] !== undefined) {
        text += ENTITIES[entity[1]];
        i = ENTITY.lastIndex;
        continue;
      }
    } else if (char === "<") {
      TAG.lastIndex = i;
      const tag = TAG.exec(markup);
      const [source = "", slash = "", name = "", rest = ""] = tag ?? [];
      if (tag !== null && name !== "br" && !STYLE_TAGS.has(name) && !styles.has(name)) {
        return fail(i, unknownTag(source, name, styles));
      }
      if (tag !== null) {
        if (name === "br") {
          if (slash !== "" || !/^\s*\/?\s*$/.test(rest))
            return fail(i, `${quote(source)} is not a line break: write <br>`);
          text += "\n";
        } else if (slash !== "") {
          if (rest.trim() !== "") return fail(i, `${quote(source)}: a closing tag takes no attributes`);
          const top = open.at(-1);
          if (top === undefined) return fail(i, `${quote(source)} closes nothing: no <${name}> is open`);
          if (top.name !== name) {
            return fail(
              i,
              `${quote(source)} closes <${top.name}>, opened at character ${positionOf(markup, top.index)}: close <${top.name}> first`,
            );
          }
          flush();
          open.pop();
        } else {
          let color: string | null = null;
          if (name === "color") {
            const value = COLOR_VALUE.exec(rest);
            if (value === null) return fail(i, `${quote(source)} needs a colour: <color value="#RRGGBB">`);
            color = value[1] ?? value[2] ?? null;
          } else if (rest.trim() !== "") {
            return fail(i, `${quote(source)}: <${name}> takes no attributes`);
          }
          flush();
          open.push({ name, index: i, color });
        }
        i += source.length;
        continue;
      }
    }
    text += char;
    i++;
  }
  const unclosed = open.at(-1);
  if (unclosed !== undefined)
    return fail(unclosed.index, `<${unclosed.name}> is never closed (add </${unclosed.name}>)`);
  flush();
  return { ok: true, runs };
}

/** The message for markup that does not parse: where, then what. */
export function markupError(error: { position: number; message: string }): string {
  return `has malformed markup at character ${error.position}: ${error.message}`;
}

/** The text the runs draw, without markup. */
export function plainTextOf(runs: readonly RichRun[]): string {
  return runs.map((run) => run.text).join("");
}

/** Runs holding the first `end` UTF-16 units of their text, then `suffix` in the last run's style. */
export function sliceRuns(runs: readonly RichRun[], end: number, suffix: string): RichRun[] {
  const kept: RichRun[] = [];
  let remaining = end;
  for (const run of runs) {
    if (remaining <= 0) break;
    kept.push({ ...run, text: run.text.slice(0, remaining) });
    remaining -= run.text.length;
  }
  const last = kept.at(-1);
  if (last !== undefined) last.text = `${last.text.trimEnd()}${suffix}`;
  return kept;
}

function styleOf(open: readonly OpenTag[]): Omit<RichRun, "text"> {
  const style: Omit<RichRun, "text"> = {
    bold: false,
    italic: false,
    underline: false,
    strike: false,
    color: null,
  };
  const named: string[] = [];
  for (const tag of open) {
    if (tag.name === "color") style.color = tag.color;
    else if (Object.hasOwn(STYLE_FLAG, tag.name))
      style[STYLE_FLAG[tag.name as keyof typeof STYLE_FLAG]] = true;
    else named.push(tag.name);
  }
  if (named.length > 0) style.styles = named;
  return style;
}

function unknownTag(source: string, name: string, styles: ReadonlySet<string>): string {
  const known = [...BUILT_IN_TAGS, ...[...styles].sort()].map((tag) => `<${tag}>`).join(", ");
  return `${quote(source)} is not a tag of this template (it has ${known}): define an inline style "${name}", or write &lt; for a literal "<"`;
}

function sameStyle(a: Omit<RichRun, "text">, b: Omit<RichRun, "text">): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.strike === b.strike &&
    a.color === b.color &&
    (a.styles ?? []).join(" ") === (b.styles ?? []).join(" ")
  );
}

function positionOf(markup: string, index: number): number {
  return [...markup.slice(0, index)].length + 1;
}

function quote(source: string): string {
  return source.length <= 40 ? source : `${source.slice(0, 37)}...`;
}
