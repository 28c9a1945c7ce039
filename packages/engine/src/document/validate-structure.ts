import { joinPath, type ValidationError } from "./validate-paths.ts";

/**
 * JSON nesting allowed before any schema check. The deepest legitimate path is 4 levels plus 2 per
 * group (`frames[0].layers[0].layers[0]...`) plus a leaf layer's own (a gradient stroke: 5), about 73
 * with MAX_GROUP_DEPTH (32) groups, so 128 leaves room for them while keeping the recursive schema
 * checker far from the stack limit on hostile input (10,000 levels). A JSON body that carries a
 * document must allow this depth plus its own levels (the server's JSON body limit does).
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
  // Paths are built only when reporting: each node keeps its parent and step (keeps the scan ~3x cheaper).
  const stack: Visit[] = [{ value: input, parent: null, step: "", depth: 1 }];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    if (seen.has(node.value)) {
      return {
        path: pathOf(node),
        message: "must not be a shared or circular reference (documents are JSON trees)",
      };
    }
    seen.add(node.value);
    if (seen.size > MAX_NODES) return { path: "", message: `is too large (more than ${MAX_NODES} objects)` };
    if (node.depth > MAX_JSON_DEPTH) {
      return { path: pathOf(node), message: `is nested too deeply (more than ${MAX_JSON_DEPTH} levels)` };
    }
    const depth = node.depth + 1;
    if (Array.isArray(node.value)) {
      for (let i = node.value.length - 1; i >= 0; i--) {
        const child: unknown = node.value[i];
        if (typeof child === "object" && child !== null)
          stack.push({ value: child, parent: node, step: i, depth });
      }
    } else {
      const record = node.value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const child = record[key];
        if (typeof child === "object" && child !== null)
          stack.push({ value: child, parent: node, step: key, depth });
      }
    }
  }
  return null;
}

interface Visit {
  value: object;
  parent: Visit | null;
  step: string | number;
  depth: number;
}

function pathOf(node: Visit): string {
  const steps: (string | number)[] = [];
  for (let at: Visit | null = node; at?.parent; at = at.parent) steps.push(at.step);
  let path = "";
  for (let i = steps.length - 1; i >= 0; i--) path = joinPath(path, steps[i] as string | number);
  return path;
}
