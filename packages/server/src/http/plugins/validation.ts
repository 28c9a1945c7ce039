import AjvCompiler from "@fastify/ajv-compiler";
import type { FastifySchemaValidationError } from "fastify/types/schema.js";
import type { FieldError } from "../errors.ts";

type BuildValidator = ReturnType<typeof AjvCompiler>;

/**
 * Validator factory for Fastify's `schemaController.compilersFactory.buildValidator`.
 *
 * Bodies are JSON and already typed, so they are validated WITHOUT type coercion: Fastify's default
 * (`coerceTypes: "array"`) would turn `"scale": "2"` into 2, where the spec demands 400
 * invalid_scale. Query strings, params and headers are always strings and keep coercion so that
 * `?limit=50` validates as an integer. `removeAdditional` is off in both, so a schema's
 * `additionalProperties: false` rejects a misspelt field instead of silently dropping it.
 * `allErrors` stays off (Fastify's default): collecting every error of a 10 MiB body is a memory
 * amplification; a caller gets the first error, which is what it must fix first anyway.
 */
export function buildPartAwareValidator(): BuildValidator {
  const factory = AjvCompiler();
  return ((externalSchemas, ajvServerOption) => {
    const base = ajvServerOption ?? {};
    const custom = "customOptions" in base && base.customOptions ? base.customOptions : {};
    const forBody = factory(externalSchemas, {
      ...base,
      // verbose: an error carries its schema, so a failed union can say what it accepts.
      customOptions: { ...custom, coerceTypes: false, removeAdditional: false, verbose: true },
    } as Parameters<BuildValidator>[1]);
    const forOtherParts = factory(externalSchemas, {
      ...base,
      customOptions: { ...custom, coerceTypes: "array", removeAdditional: false, verbose: true },
    } as Parameters<BuildValidator>[1]);
    return ((route: { httpPart?: string }) =>
      route.httpPart === "body"
        ? (forBody as (r: unknown) => unknown)(route)
        : (forOtherParts as (r: unknown) => unknown)(route)) as unknown as ReturnType<BuildValidator>;
  }) as BuildValidator;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["modifications", "2", "color"]` → `modifications[2].color` (the path style of our error bodies). */
export function formatPath(segments: readonly string[]): string {
  let out = "";
  for (const segment of segments) {
    if (/^(0|[1-9][0-9]*)$/.test(segment)) out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** JSON Pointer (`/modifications/2/color`, RFC 6901 escapes) → path segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Segments of the field an Ajv error is about: for `required` that is the missing property itself. */
export function errorSegments(error: FastifySchemaValidationError): string[] {
  const segments = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    segments.push(params.missingProperty);
  } else if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    segments.push(params.additionalProperty);
  }
  return segments;
}

type SchemaLike = {
  const?: unknown;
  type?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  anyOf?: SchemaLike[];
  description?: string;
};

/** One alternative of a union as a person reads it: `"png"`, `true or false`, `a number from 0 to 60`. */
function describeAlternative(schema: SchemaLike): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(", ");
  if (schema.anyOf) return schema.anyOf.map(describeAlternative).join(", ");
  if (schema.type === "boolean") return "true or false";
  if (schema.type === "number" || schema.type === "integer") {
    const kind = schema.type === "integer" ? "a whole number" : "a number";
    if (schema.minimum !== undefined && schema.maximum !== undefined)
      return `${kind} from ${schema.minimum} to ${schema.maximum}`;
    if (schema.minimum !== undefined) return `${kind} of at least ${schema.minimum}`;
    return kind;
  }
  if (schema.type === "null") return "null";
  if (schema.description) return schema.description;
  if (!schema.type) return "another value";
  return `${/^[aeiou]/.test(schema.type) ? "an" : "a"} ${schema.type}`;
}

/**
 * A failed union (`anyOf`) makes Ajv report each alternative's own complaint first ("must be
 * boolean" for `"wait": 61`); what helps is the list of what the field accepts.
 */
function describeUnion(error: FastifySchemaValidationError): string | null {
  const parent = (error as { parentSchema?: SchemaLike }).parentSchema;
  if (error.keyword !== "anyOf" || !parent?.anyOf) return null;
  const alternatives = parent.anyOf.map(describeAlternative);
  if (parent.anyOf.every((s) => s.const !== undefined)) return `must be one of ${alternatives.join(", ")}`;
  return `must be ${alternatives.join(", or ")}`;
}

function describe(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  const union = describeUnion(error);
  if (union) return union;
  if (error.keyword === "required") return "is required";
  if (error.keyword === "additionalProperties") return "is not a known field";
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return error.message ?? "is invalid";
}

export interface MappedValidationFailure {
  code: "invalid_request" | "invalid_scale";
  message: string;
  errors: FieldError[];
}

// Bounds the error body even if a custom compiler collects every error.
const MAX_REPORTED_ERRORS = 20;

/**
 * Fastify validation errors → our error body. Body paths are bare (`modifications[2].color`); other
 * parts are prefixed (`querystring.limit`, `params.id`). Any error on the top-level body field
 * `scale` makes the code `invalid_scale` (spec: scale outside 1..4, "2", null → invalid_scale).
 */
export function mapValidationErrors(
  errors: readonly FastifySchemaValidationError[],
  context: string | undefined,
): MappedValidationFailure {
  const part = context ?? "body";
  let scale = false;
  const fieldErrors: FieldError[] = [];
  // A union's own error stands for its alternatives' errors at the same path (reported before it).
  const reported = errors.slice(0, MAX_REPORTED_ERRORS);
  const unionPaths = new Set(reported.filter((e) => describeUnion(e) !== null).map((e) => e.instancePath));
  for (const error of reported) {
    if (unionPaths.has(error.instancePath) && describeUnion(error) === null) continue;
    const segments = errorSegments(error);
    if (part === "body" && segments[0] === "scale") scale = true;
    const path = formatPath(part === "body" ? segments : [part, ...segments]);
    fieldErrors.push({ path, message: describe(error) });
  }
  const first = fieldErrors[0];
  const where = first ? (first.path === "" ? "The request body" : `'${first.path}'`) : "The request";
  const message = scale
    ? "'scale' must be a number from 1 to 4."
    : `${where} ${first?.message ?? "is invalid"}.`;
  return { code: scale ? "invalid_scale" : "invalid_request", message, errors: fieldErrors };
}

type ValueCheck = (value: unknown) => boolean;
const scaleChecks = new WeakMap<object, ValueCheck>();
let compileScaleCheck: ((schema: object) => ValueCheck) | undefined;

/**
 * True when the body carries a top-level `scale` that its route's schema refuses. Ajv stops at the
 * first error (allErrors off), so `{"scale": "2"}` with a missing `template` reports only the
 * missing field; this second look keeps the spec's rule that a bad scale is always invalid_scale.
 */
export function bodyScaleIsInvalid(bodySchema: unknown, body: unknown): boolean {
  if (typeof body !== "object" || body === null || !Object.hasOwn(body, "scale")) return false;
  const properties = (bodySchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const scaleSchema = properties?.scale;
  if (typeof scaleSchema !== "object" || scaleSchema === null) return false;
  let check = scaleChecks.get(scaleSchema);
  if (!check) {
    compileScaleCheck ??= (() => {
      const compile = AjvCompiler()({}, { customOptions: { coerceTypes: false, strict: false } });
      return (schema: object) => {
        const validate = compile({ schema, method: "POST", url: "", httpPart: "body" } as never) as (
          value: unknown,
        ) => boolean;
        return (value: unknown) => validate(value) === true;
      };
    })();
    check = compileScaleCheck(scaleSchema);
    scaleChecks.set(scaleSchema, check);
  }
  return !check((body as { scale: unknown }).scale);
}
