import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The engine's module structure, read from the sources (nothing is run): the document half (schema,
 * validation, migrations, slot values) must load without the renderer, so that a host validating a
 * document on its API thread loads no drawing code, and no two modules may need each other at run time.
 * Type-only imports (`import type`, `export type`) are erased and may cross; an import with inline
 * `type` specifiers only is still a run-time import under `verbatimModuleSyntax` (it is kept as
 * `import {} from`), so it counts.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The engine modules a file loads at run time (relative imports and re-exports, dynamic ones too). */
function runtimeImports(file: string, text = readFileSync(file, "utf8")): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.filter((s) => s.startsWith(".")).map((s) => resolve(dirname(file), s));
}

type Graph = ReadonlyMap<string, readonly string[]>;

const files = sourceFiles(SRC);
const engine: Graph = new Map(files.map((file) => [file, runtimeImports(file)]));
const name = (file: string) => relative(SRC, file);

/** Every cycle's modules: each strongly connected component of more than one module, or a self-import (Tarjan). */
function cycles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(name(member));
      if (member === file) break;
    }
    const selfLoop = (graph.get(file) ?? []).includes(file);
    if (component.length > 1 || selfLoop) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found;
}

/** The modules `file` loads at run time, directly or through others, each with the chain that reaches it. */
function reached(graph: Graph, file: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[file, [name(file)]]]);
  const queue = [file];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const next of graph.get(at) ?? []) {
      if (chains.has(next)) continue;
      chains.set(next, [...(chains.get(at) ?? []), name(next)]);
      queue.push(next);
    }
  }
  return chains;
}

describe("engine import graph (run-time imports of packages/engine/src)", () => {
  it("reads the sources: every relative import names an existing module", () => {
    expect(files.length).toBeGreaterThan(50);
    const missing = [...engine].flatMap(([file, imports]) =>
      imports.filter((target) => !engine.has(target)).map((target) => `${name(file)} -> ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it("has no import circle", () => {
    expect(cycles(engine)).toEqual([]);
  });

  it("no module under src/document reaches a module under src/render", () => {
    const crossings = files
      .filter((file) => name(file).startsWith("document/"))
      .flatMap((file) =>
        [...reached(engine, file)]
          .filter(([target]) => name(target).startsWith("render/"))
          .map(([, chain]) => chain.join(" -> ")),
      );
    expect(crossings).toEqual([]);
  });
});

describe("the import-graph checks themselves", () => {
  it("count what is loaded at run time and skip what is erased", () => {
    const text = [
      'import type { A } from "./a.ts";',
      'import { type B } from "./b.ts";',
      'import { c } from "./c.ts";',
      'export type { D } from "./d.ts";',
      'export * from "./e.ts";',
      'const f = await import("./f.ts");',
      'import { g } from "typebox";',
    ].join("\n");
    const loaded = runtimeImports(join(SRC, "x.ts"), text).map(name);
    expect(loaded).toEqual(["b.ts", "c.ts", "e.ts", "f.ts"]);
  });

  it("find a circle and the chain that reaches a module", () => {
    const at = (module: string) => join(SRC, `${module}.ts`);
    const graph: Graph = new Map([
      [at("a"), [at("b")]],
      [at("b"), [at("c")]],
      [at("c"), [at("a")]],
      [at("d"), [at("a"), at("d")]],
      [at("e"), []],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
    expect(reached(graph, at("d")).get(at("c"))).toEqual(["d.ts", "a.ts", "b.ts", "c.ts"]);
  });
});
