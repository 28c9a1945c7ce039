import { joinPath, type ValidationError } from "./validate-paths.ts";

/**
 * JSON nesting allowed before any schema check. The deepest legitimate path is about 5 levels plus 2 per
 * group (`frames[0].layers[0].layers[0]...`), so 128 leaves room for MAX_GROUP_DEPTH groups while keeping
 * the recursive schema checker far from the stack limit on hostile input (10,000 levels).
 */
export const MAX_JSON_DEPTH = 128;

/** Objects and arrays visited before giving up: far above any real template (a few thousand). */
const MAX_NODES = 1_000_000;

/**
 * Checks that the input is a tree of plain JSON data the recursive checkers can walk safely: bounded
 * depth, no shared or circular references (JSON.parse never makes them; hand-built objects might).
 * Iterative, so it cannot overflow the stack itself.
 */
export function checkStructure(input: unknown): ValidationError | null {
  if (typeof input !== "object" || input === null) return null;
  const seen = new Set<object>();
  const stack: { value: object; path: string; depth: number }[] = [{ value: input, path: "", depth: 1 }];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    if (seen.has(node.value)) {
      return {
        path: node.path,
        message: "must not be a shared or circular reference (documents are JSON trees)",
      };
    }
    seen.add(node.value);
    if (seen.size > MAX_NODES) return { path: "", message: `is too large (more than ${MAX_NODES} objects)` };
    if (node.depth > MAX_JSON_DEPTH) {
      return { path: node.path, message: `is nested too deeply (more than ${MAX_JSON_DEPTH} levels)` };
    }
    const entries: [string | number, unknown][] = Array.isArray(node.value)
      ? node.value.map((v, i): [number, unknown] => [i, v])
      : Object.keys(node.value).map((k): [string, unknown] => [
          k,
          (node.value as Record<string, unknown>)[k],
        ]);
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i];
      if (entry === undefined) continue;
      const [step, child] = entry;
      if (typeof child === "object" && child !== null) {
        stack.push({ value: child, path: joinPath(node.path, step), depth: node.depth + 1 });
      }
    }
  }
  return null;
}
