import { Kind, type TSchema } from "@sinclair/typebox";
import {
  TypeCompiler,
  type ValueError,
  type ValueErrorIterator,
  ValueErrorType,
} from "@sinclair/typebox/compiler";
import { CONTAINER_SCHEMAS, TemplateDocument, type TemplateDocumentT } from "./schema.ts";
import { didYouMean, isRecord, pointerToPath, quoteList, type ValidationError } from "./validate-paths.ts";

/** Compiled once per process (and per browser tab): the checker is generated code, ~10x faster than Value.Check. */
const checker = TypeCompiler.Compile(TemplateDocument, [...CONTAINER_SCHEMAS]);

/** `$ref` targets inside the document schema (containers' children refer to groups and stacks by id). */
const schemasById = new Map<string, TSchema>([
  ...CONTAINER_SCHEMAS.map((schema): [string, TSchema] => [schema.$id as string, schema]),
  ["TemplateDocumentV4", TemplateDocument],
]);

/** Errors listed before the rest are dropped: a document broken everywhere needs the first few fixed first. */
export const MAX_ERRORS = 100;

/** Human wording for each pattern in schema.ts; a pattern missing here falls back to quoting the regex. */
const PATTERN_MESSAGES: Record<string, string> = {
  "^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$": 'must be a colour in the form "#RRGGBB" or "#RRGGBBAA"',
  "^#[0-9A-Fa-f]{6}$": 'must be a colour in the form "#RRGGBB"',
  "^[A-Za-z_][A-Za-z0-9_-]{0,63}$":
    'must start with a letter or "_" and contain only letters, digits, "_" and "-" (at most 64 characters)',
  "^[A-Za-z0-9_-]{1,64}$": 'must be 1 to 64 letters, digits, "_" or "-"',
  "^[a-z0-9][a-z0-9-]{0,63}$":
    'must be a slug: lowercase letters, digits and "-", starting with a letter or digit (at most 64 characters)',
};

export function isTemplateDocument(value: unknown): value is TemplateDocumentT {
  return checker.Check(value);
}

/** Schema errors of a value that failed `isTemplateDocument`, one per problem, in document order. */
export function schemaErrors(value: unknown): ValidationError[] {
  const out: ValidationError[] = [];
  const seenPaths = new Set<string>();
  const push = (error: ValidationError): boolean => {
    if (seenPaths.has(error.path)) return true;
    seenPaths.add(error.path);
    out.push(error);
    return out.length < MAX_ERRORS;
  };
  collect(checker.Errors(value), value, push);
  return out;
}

type Push = (error: ValidationError) => boolean;

function collect(errors: Iterable<ValueError>, root: unknown, push: Push): boolean {
  for (const error of errors) {
    const more =
      error.type === ValueErrorType.Union ? collectUnion(error, root, push) : push(describe(error, root));
    if (!more) return false;
  }
  return true;
}

function deref(schema: TSchema): TSchema {
  if ((schema[Kind] === "This" || schema[Kind] === "Ref") && typeof schema.$ref === "string") {
    return schemasById.get(schema.$ref) ?? schema;
  }
  return schema;
}

/**
 * TypeBox reports a failed union as one error holding every variant's errors: for a layer that is four
 * lists of noise. Report what the author meant instead: the variant named by the value's `type`, or the
 * only variant of the value's JSON kind, or else one "must be A or B" line.
 */
function collectUnion(error: ValueError, root: unknown, push: Push): boolean {
  const variants = (error.schema.anyOf as TSchema[]).map(deref);
  const path = pointerToPath(error.path, root);
  if (variants.every((v) => v[Kind] === "Literal")) {
    return push({ path, message: `must be one of ${quoteList(variants.map((v) => v.const))}` });
  }
  const value = error.value;
  const tags: unknown[] = variants.map((v) => v.properties?.type?.const);
  if (isRecord(value) && tags.every((t) => typeof t === "string")) {
    const index = typeof value.type === "string" ? tags.indexOf(value.type) : -1;
    const typePath = pointerToPath(`${error.path}/type`, root);
    if (index < 0) {
      const missing = !Object.hasOwn(value, "type");
      return push({
        path: typePath,
        message: missing ? `is required (one of ${quoteList(tags)})` : `must be one of ${quoteList(tags)}`,
      });
    }
    return collect(error.errors[index] ?? [], root, push);
  }
  const kind = kindOfValue(value);
  const candidates = variants.map((v, i) => ({ i, v })).filter(({ v }) => kindsOfSchema(v).includes(kind));
  if (candidates.length === 0) {
    const described = [...new Set(variants.flatMap(describeSchemas))];
    return push({ path, message: `must be ${described.join(" or ")}` });
  }
  // Variants told apart by another literal property (a mask's `shape`): the one the value names.
  const named = candidates.filter(({ v }) => namesVariant(v, value));
  const tag = named.length === 0 ? literalKeyOf(variants, value) : null;
  if (tag !== null) {
    return push({
      path: pointerToPath(`${error.path}/${tag.key}`, root),
      message: `must be one of ${quoteList(tag.values)}`,
    });
  }
  let best: ValueError[] | null = null;
  for (const { i } of named.length > 0 ? named : candidates) {
    const list = [...((error.errors[i] ?? []) as ValueErrorIterator)];
    if (best === null || list.length < best.length) best = list;
  }
  return collect(best ?? [], root, push);
}

/** Whether the value has every literal property of the object variant (and it has at least one). */
function namesVariant(variant: TSchema, value: unknown): boolean {
  if (!isRecord(value)) return false;
  const literals = Object.entries((variant.properties ?? {}) as Record<string, TSchema>).filter(
    ([, property]) => property[Kind] === "Literal",
  );
  return literals.length > 0 && literals.every(([key, property]) => value[key] === property.const);
}

/** A property of the value that some variants require to be a literal: the key and its allowed values. */
function literalKeyOf(
  variants: readonly TSchema[],
  value: unknown,
): { key: string; values: unknown[] } | null {
  if (!isRecord(value)) return null;
  for (const key of Object.keys(value)) {
    const values = variants
      .map((v) => (v.properties as Record<string, TSchema> | undefined)?.[key])
      .filter((property) => property?.[Kind] === "Literal")
      .map((property) => property?.const);
    if (values.length > 0) return { key, values: [...new Set(values)] };
  }
  return null;
}

function kindOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** A union nested in a union (a paint or null) offers every kind its members take. */
function kindsOfSchema(schema: TSchema): string[] {
  if (schema[Kind] === "Union") return (schema.anyOf as TSchema[]).map(deref).flatMap(kindsOfSchema);
  return [kindOfSchema(schema)];
}

function describeSchemas(schema: TSchema): string[] {
  if (schema[Kind] === "Union") return (schema.anyOf as TSchema[]).map(deref).flatMap(describeSchemas);
  return [describeSchema(schema)];
}

function kindOfSchema(schema: TSchema): string {
  switch (schema[Kind]) {
    case "Literal":
      return typeof schema.const;
    case "Integer":
    case "Number":
      return "number";
    case "Tuple":
    case "Array":
      return "array";
    case "Null":
      return "null";
    case "String":
      return "string";
    case "Boolean":
      return "boolean";
    default:
      return "object";
  }
}

function describeSchema(schema: TSchema): string {
  switch (schema[Kind]) {
    case "Literal":
      return JSON.stringify(schema.const);
    case "Null":
      return "null";
    case "Number":
    case "Integer":
      return typeof schema.minimum === "number" ? `a number >= ${schema.minimum}` : "a number";
    case "Tuple":
      return `an array of ${schema.maxItems} numbers`;
    case "String":
      return schema.pattern === "^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$" ? 'a colour like "#RRGGBB"' : "a string";
    default:
      if (schema.properties?.stops) return "a gradient object";
      // A built-in pattern has `pattern`, an image pattern `image`: both are `type: "pattern"`.
      return schema.properties?.type?.const === "pattern" ? "a pattern object" : "an object";
  }
}

function describe(error: ValueError, root: unknown): ValidationError {
  const path = pointerToPath(error.path, root);
  return { path, message: messageFor(error) };
}

function messageFor(error: ValueError): string {
  const s = error.schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ObjectAdditionalProperties: {
      const key = error.path
        .slice(error.path.lastIndexOf("/") + 1)
        .replace(/~1/g, "/")
        .replace(/~0/g, "~");
      return `is not a known property${didYouMean(key, Object.keys(s.properties ?? {}))}`;
    }
    case ValueErrorType.Object:
      return "must be an object";
    case ValueErrorType.Array:
      return "must be an array";
    case ValueErrorType.String:
      return "must be a string";
    case ValueErrorType.Boolean:
      return "must be true or false";
    case ValueErrorType.Null:
      return "must be null";
    case ValueErrorType.Number:
      return typeof error.value === "number" ? "must be a finite number" : "must be a number";
    case ValueErrorType.Integer:
      return typeof error.value === "number" ? "must be a whole number" : "must be an integer";
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(s.const)}`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be >= ${s.minimum}`;
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `must be > ${s.exclusiveMinimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be <= ${s.maximum}`;
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return `must be < ${s.exclusiveMaximum}`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${s.maxLength} characters`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? "must not be empty" : `must be at least ${s.minLength} characters`;
    case ValueErrorType.StringPattern:
      return PATTERN_MESSAGES[s.pattern as string] ?? `must match the pattern ${s.pattern}`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${s.maxItems} items`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${s.minItems} item${s.minItems === 1 ? "" : "s"}`;
    case ValueErrorType.Tuple:
    case ValueErrorType.TupleLength:
      return `must be an array of exactly ${s.maxItems} items`;
    default:
      return error.message;
  }
}
