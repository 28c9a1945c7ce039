/**
 * Moves every schema that carries a `title` (`Render`, `Asset`, `RenderRequest`, …) out of the
 * operations into `components.schemas.<title>` and leaves a `$ref` in each place it was used, so a
 * generated client or agent tool gets one named type per object instead of an inline copy per
 * route. The routes keep their schemas inline for validation and serialisation; only the served
 * document is shaped. Two different schemas under one title are a programming error (thrown).
 */

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A schema object: has a JSON Schema shape keyword (a `properties` map of schemas does not). */
const SHAPE_KEYWORDS = ["type", "properties", "anyOf", "oneOf", "allOf", "items", "enum", "const", "$ref"];
export const hasShape = (node: Json): boolean => SHAPE_KEYWORDS.some((k) => k in node);
const isNamedSchema = (node: Json): node is Json & { title: string } =>
  typeof node.title === "string" && hasShape(node);

export function withNamedSchemas<T extends { paths?: unknown; components?: Json }>(document: T): T {
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  components.schemas = schemas;
  document.components = components;
  const hoisted = new Map<string, string>();

  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, child] of Object.entries(node)) out[key] = visit(child);
    if (!isNamedSchema(out)) return out;
    const name = out.title;
    const text = JSON.stringify(out);
    const earlier = hoisted.get(name);
    if (earlier === undefined) {
      if (schemas[name] !== undefined) throw new Error(`OpenAPI: schema name ${name} is taken`);
      hoisted.set(name, text);
      schemas[name] = out;
    } else if (earlier !== text) {
      throw new Error(`OpenAPI: two different schemas are titled ${name}`);
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  document.paths = visit(document.paths);
  return document;
}
