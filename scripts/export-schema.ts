import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Kind } from "@sinclair/typebox";
import * as common from "../packages/engine/src/document/common.ts";
import * as documentSchema from "../packages/engine/src/document/schema.ts";

/**
 * Writes the template document v4 JSON Schema for editors, other languages and CI of
 * templates-as-code repositories. Draft 2019-09: it has `$defs`, and it still takes the array form of
 * `items` that TypeBox emits for tuples. Every part the TypeBox schema shares (each layer type, which
 * appears in a frame's layers and again in a group's, paints, strokes, shadows...) is written once
 * under `$defs`, named as the engine exports it, and referred to by `$ref`; the rest is inlined.
 * `template-v1.schema.json`, `template-v2.schema.json` and `template-v3.schema.json` beside it are the
 * frozen v1, v2 and v3 schemas, kept for those versions' authors' editors; they are never
 * regenerated. The committed file is compared (as parsed JSON) with a fresh export by
 * packages/engine/test/document/schema-export.test.ts.
 *
 *   node scripts/export-schema.ts
 */
export const SCHEMA_FILE = fileURLToPath(
  new URL("../packages/engine/schema/template-v4.schema.json", import.meta.url),
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const LAYERS_DIR = new URL("../packages/engine/src/document/layers/", import.meta.url);

/**
 * Every TypeBox schema the document modules export, by its JSON text -> its export name. Looked up by
 * text, not identity: `T.Optional(Paint)` is a copy of `Paint`. The public names come first (`Stroke`,
 * not the identical `LineStroke`), then each layer type's module in name order.
 */
async function exportedSchemas(): Promise<Map<string, string>> {
  const layerModules = readdirSync(LAYERS_DIR)
    .filter((file) => file.endsWith(".ts"))
    .sort();
  const modules: Record<string, unknown>[] = [documentSchema, common];
  for (const file of layerModules) modules.push(await import(new URL(file, LAYERS_DIR).href));
  const names = new Map<string, string>();
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) {
      const isSchema = typeof value === "object" && value !== null && Kind in value;
      const text = isSchema ? JSON.stringify(value) : undefined;
      if (text !== undefined && !names.has(text)) names.set(text, name);
    }
  }
  return names;
}

const NAMES = await exportedSchemas();

/**
 * How often each named part occurs, counting what is inside a named part once however often that part
 * occurs (it will be written once), and which name each `$id` belongs to.
 */
function occurrences(root: JsonObject, names: ReadonlyMap<string, string>) {
  const counts = new Map<string, number>();
  const idNames = new Map<string, string>();
  const visit = (node: Json): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    if (typeof node !== "object" || node === null || Array.isArray(node)) return;
    const text = JSON.stringify(node);
    const name = node === root ? undefined : names.get(text);
    if (name !== undefined) {
      counts.set(text, (counts.get(text) ?? 0) + 1);
      if (typeof node.$id === "string") idNames.set(node.$id, name);
      if ((counts.get(text) ?? 0) > 1) return;
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(root);
  return { counts, idNames };
}

/**
 * `root` with each named part that occurs more than once (or that is referred to by its `$id`, as the
 * recursive group layer is) moved to `$defs`, in the order first met.
 */
export function withDefs(root: JsonObject, names: ReadonlyMap<string, string>): JsonObject {
  const { counts, idNames } = occurrences(root, names);
  const defs = new Map<string, Json>();
  // `at`: the root, a part being written under `$defs`, or anything inside them.
  const rewrite = (node: Json, at: "root" | "definition" | "inside"): Json => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item, "inside"));
    if (typeof node !== "object" || node === null) return node;
    const text = JSON.stringify(node);
    const name = at === "inside" ? names.get(text) : undefined;
    if (name !== undefined && ((counts.get(text) ?? 0) > 1 || typeof node.$id === "string")) {
      if (!defs.has(name)) {
        defs.set(name, null); // holds its place: definitions are listed in the order first met
        defs.set(name, rewrite(node, "definition"));
      }
      return { $ref: `#/$defs/${name}` };
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      // A definition's `$id` goes: what referred to it by that id now points into `$defs`.
      if (key === "$id" && at === "definition") continue;
      const target = key === "$ref" && typeof value === "string" ? idNames.get(value) : undefined;
      out[key] = target === undefined ? rewrite(value, "inside") : `#/$defs/${target}`;
    }
    return out;
  };
  const body = rewrite(root, "root") as JsonObject;
  return { ...body, $defs: Object.fromEntries(defs) };
}

export function exportTemplateSchema(): string {
  // JSON.stringify drops TypeBox's symbol-keyed metadata, leaving plain JSON Schema.
  const plain = JSON.parse(JSON.stringify(documentSchema.TemplateDocument)) as JsonObject;
  const schema = {
    $schema: "https://json-schema.org/draft/2019-09/schema",
    title: "Pictor template document v4",
    ...withDefs(plain, NAMES),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, exportTemplateSchema());
  // Formatted as the repository formats JSON, so `npm run format` never rewrites the committed file.
  execFileSync("npx", ["biome", "format", "--write", SCHEMA_FILE], { stdio: "ignore" });
  console.log(`wrote ${SCHEMA_FILE}`);
}
