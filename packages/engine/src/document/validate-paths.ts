/** A problem found in a document or in slot values, located by a JSON path such as `frames[1].layers[3].font.size`. */
export interface ValidationError {
  path: string;
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends one step to a path: `[3]` for array indices, `.name` for identifiers, `["odd key"]` otherwise. */
export function joinPath(path: string, step: string | number): string {
  if (typeof step === "number") return `${path}[${step}]`;
  if (IDENTIFIER.test(step)) return path === "" ? step : `${path}.${step}`;
  return `${path}[${JSON.stringify(step)}]`;
}

/**
 * Converts a TypeBox JSON pointer (`/frames/1/layers/3`) to our path form. The value is walked alongside
 * so that a numeric step is written `[n]` only when it really indexes an array (a `bind` key "0" is a key).
 */
export function pointerToPath(pointer: string, root: unknown): string {
  if (pointer === "") return "";
  let path = "";
  let node: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const step = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(step)) {
      path = joinPath(path, Number(step));
      node = node[Number(step)];
    } else {
      path = joinPath(path, step);
      node = isRecord(node) && Object.hasOwn(node, step) ? node[step] : undefined;
    }
  }
  return path;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Edit distance, for "did you mean" hints on typos (`colour` -> `color`, `headlin` -> `headline`). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 99;
}

/**
 * ` (did you mean "x"?)` when one candidate is a plausible typo of `name`, else "". Of equally close
 * candidates the one sharing the longest start with `name` wins (typos are rarer at the start:
 * "hart" -> "heart", not "cart").
 */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  if (name.length > 64) return "";
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const candidate of candidates) {
    const distance = candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate);
    const closer =
      best === null ||
      distance < bestDistance ||
      (distance === bestDistance && commonPrefix(name, candidate) > commonPrefix(name, best));
    if (distance <= bestDistance && closer) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === null ? "" : ` (did you mean ${JSON.stringify(best)}?)`;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n]?.toLowerCase() === b[n]?.toLowerCase()) n++;
  return n;
}

export function quoteList(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}
