/**
 * Syntax check of SVG path data (the `d` attribute, SVG 1.1 grammar), without CanvasKit: validation is
 * pure and runs where no engine is loaded (the API's request check, the editor's form). The renderer
 * still parses with Skia and draws nothing should Skia disagree, so this check only has to catch what
 * a designer would get wrong: unknown commands, missing or extra numbers, a path not starting with M.
 */

/** Numbers each command takes per segment; a command may repeat its segments implicitly. */
const ARITY: Readonly<Record<string, number>> = {
  m: 2,
  l: 2,
  h: 1,
  v: 1,
  c: 6,
  s: 4,
  q: 4,
  t: 2,
  a: 7,
  z: 0,
};

const NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;
const SEPARATORS = /^[\s,]*/;

/** Why `d` is not valid path data, or null when it is. An empty string is valid (draws nothing). */
export function svgPathDataError(d: string): string | null {
  let at = 0;
  const skip = () => {
    at += SEPARATORS.exec(d.slice(at))?.[0].length ?? 0;
  };
  skip();
  let first = true;
  while (at < d.length) {
    const command = d[at] ?? "";
    const arity = ARITY[command.toLowerCase()];
    if (arity === undefined) return `unexpected ${JSON.stringify(command)} at character ${at + 1}`;
    if (first && command.toLowerCase() !== "m") {
      return `must start with a moveto command (M or m), not ${JSON.stringify(command)}`;
    }
    first = false;
    at++;
    skip();
    if (arity === 0) continue;
    for (;;) {
      for (let i = 0; i < arity; i++) {
        // Arc flags (4th and 5th numbers of A) are a single 0 or 1 that may touch the next number.
        const flag = command.toLowerCase() === "a" && (i === 3 || i === 4);
        const match = flag ? /^[01]/.exec(d.slice(at)) : NUMBER.exec(d.slice(at));
        if (match === null) {
          const found = d[at];
          if (i === 0 && found !== undefined) {
            return `unexpected ${JSON.stringify(found)} at character ${at + 1}`;
          }
          const what = flag ? "an arc flag (0 or 1)" : "a number";
          return `command ${JSON.stringify(command)} takes ${arity} numbers per segment; ${what} is missing at character ${at + 1}`;
        }
        at += match[0].length;
        skip();
      }
      // More numbers repeat the command; the next command letter (or the end) ends it.
      const next = d[at];
      if (next === undefined || ARITY[next.toLowerCase()] !== undefined) break;
    }
  }
  return null;
}
