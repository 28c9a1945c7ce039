import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hasShape, isObject, type Json } from "./named-schemas.ts";

/**
 * Some values are checked by the server's own code rather than by the route schema, so that their
 * errors come out as the domain words them: a template document (the engine validates it and
 * migrates earlier versions), a batch row (each fails alone instead of failing the batch) and a
 * batch row's result (serialised as built). Their routes declare them as an untyped placeholder with
 * a `title`; the served OpenAPI document replaces each placeholder with the real schema, so a
 * generated client or agent tool still gets a typed, named component.
 */

/** A placeholder: a `title` and nothing that constrains a value (what `T.Unknown({ title })` gives). */
const isPlaceholder = (node: Json): node is Json & { title: string } =>
  typeof node.title === "string" && !hasShape(node);

/**
 * Replaces every placeholder in `document.paths` whose title `replacements` names with its schema
 * (the placeholder's description wins, as it says how this route uses the value). Run before the
 * named schemas are hoisted: a replacement with a `title` becomes a component like any other.
 */
export function withDocumentedSchemas<T extends { paths?: unknown }>(
  document: T,
  replacements: Readonly<Record<string, Json>>,
): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    if (isPlaceholder(node) && replacements[node.title] !== undefined) {
      const replacement = asRouteSchemasRead(replacements[node.title]) as Json;
      const description = node.description ?? replacement.description;
      return description === undefined ? replacement : { ...replacement, description };
    }
    const out: Json = {};
    for (const [key, child] of Object.entries(node)) out[key] = visit(child);
    return out;
  };
  document.paths = visit(document.paths);
  return document;
}

/**
 * A TypeBox schema as @fastify/swagger writes the routes' schemas (its OpenAPI 3 conversion): a
 * record's `patternProperties` becomes `additionalProperties` and `const` becomes a one-value `enum`,
 * each appended after the keys kept. Without it, a named schema used both by a route and by a
 * replacement (`Render`, `Modification`) would read as two different schemas under one name.
 */
function asRouteSchemasRead(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asRouteSchemasRead);
  if (!isObject(node)) return node;
  const out: Json = {};
  const appended: Json = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === "$id" || key === "$schema") continue;
    if (key === "patternProperties" && isObject(child)) {
      appended.additionalProperties = asRouteSchemasRead(Object.values(child)[0]);
    } else if (key === "const") {
      appended.enum = [child];
    } else {
      out[key] = asRouteSchemasRead(child);
    }
  }
  return { ...out, ...appended };
}

/** The component that holds the current template document's schema. */
export const TEMPLATE_DOCUMENT_COMPONENT = "TemplateDocument";

/**
 * The template document's JSON Schema (the engine's exported `template-vN.schema.json`, which a
 * test keeps equal to the TypeBox source) as OpenAPI 3.1 components: the root as `TemplateDocument`,
 * each of its `$defs` under its own name (`TextLayer`, `Paint`, …), references rewritten to them.
 * The file is draft 2019-09; OpenAPI 3.1 speaks 2020-12, whose tuples are `prefixItems`.
 */
export function templateDocumentComponents(schemaFile: string): Record<string, Json> {
  const exported = JSON.parse(readFileSync(schemaFile, "utf8")) as Json;
  const { $defs, $schema: _dialect, $id: _id, title: _title, ...root } = exported;
  const toComponent = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(toComponent);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, child] of Object.entries(node)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith("#/$defs/")) {
        out.$ref = `#/components/schemas/${child.slice("#/$defs/".length)}`;
      } else if (key === "items" && Array.isArray(child)) {
        out.prefixItems = toComponent(child);
        if (node.additionalItems === false) out.items = false;
      } else if (key !== "additionalItems") {
        out[key] = toComponent(child);
      }
    }
    return out;
  };
  const components: Record<string, Json> = {
    [TEMPLATE_DOCUMENT_COMPONENT]: toComponent({
      ...root,
      description: "A template document of the current version, as the server stores and returns it.",
    }) as Json,
  };
  for (const [name, schema] of Object.entries(($defs ?? {}) as Json))
    components[name] = toComponent(schema) as Json;
  return components;
}

/** Where the engine package keeps the exported schema of the current document version. */
export function templateDocumentSchemaFile(version: number): string {
  return fileURLToPath(import.meta.resolve(`@pictor/engine/schema/template-v${version}.schema.json`));
}

/** Adds components, refusing a name another schema already holds (two types under one name). */
export function withComponents<T extends { components?: Json }>(document: T, added: Record<string, Json>): T {
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(added)) {
    if (schemas[name] !== undefined) throw new Error(`OpenAPI: schema name ${name} is taken`);
    schemas[name] = schema;
  }
  components.schemas = schemas;
  document.components = components;
  return document;
}
