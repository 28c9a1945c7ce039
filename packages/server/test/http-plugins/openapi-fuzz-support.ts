import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import * as fc from "fast-check";

/**
 * Pieces of the OpenAPI fuzzer (openapi-fuzz.test.ts): JSON Schema → fast-check arbitraries for
 * conforming values, structural mutations of them, a raw HTTP client (no URL normalisation, so `..`
 * reaches the router as sent), and the check of a response against the operation's document.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema and OpenAPI objects are walked generically.
export type Schema = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  operation: Schema;
  /** Public operations (`security: []`) take no key; the rest are scoped to the caller's account. */
  secured: boolean;
}

export function operationsOf(document: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!["get", "put", "post", "delete", "patch"].includes(method)) continue;
      const security = (operation.security ?? document.security ?? []) as unknown[];
      out.push({ method: method.toUpperCase(), path, operation, secured: security.length > 0 });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pools filled from the server's own answers: ids, strings and values by property name.

/** A growing list; arbitraries pick from it by index when a value is generated. */
export class Pool<T> {
  readonly items: T[] = [];
  private readonly seen = new Set<string>();
  private readonly max: number;
  constructor(max = 400) {
    this.max = max;
  }
  add(item: T): void {
    const key = JSON.stringify(item);
    if (this.seen.has(key) || this.items.length >= this.max) return;
    this.seen.add(key);
    this.items.push(item);
  }
  pick(n: number, fallback: T): T {
    return this.items.length === 0 ? fallback : (this.items[n % this.items.length] as T);
  }
  arbitrary(fallback: T): fc.Arbitrary<T> {
    return fc.nat().map((n) => this.pick(n, fallback));
  }
}

export interface Harvest {
  /** Values of `id` and `*_id` properties. */
  ids: Pool<string>;
  /** Short strings seen anywhere. */
  strings: Pool<string>;
  /** Values seen under each property name (objects too, e.g. a template `document`). */
  byName: Map<string, Pool<unknown>>;
  /** Paths (with query) of links to this server seen in bodies, e.g. asset_url and output_url. */
  links: Pool<string>;
  /** Ids by the static part of the path that answered them (`/v1/renders` for POST /v1/renders). */
  idsByFamily: Map<string, Pool<string>>;
}

/** The static start of a path template: `/v1/renders/{id}/deliveries` → `/v1/renders`. */
export const familyOf = (path: string) => path.split("/{")[0] as string;

/** Ids answered under `family` or below it (for `/v1/renders`: also `/v1/renders/batch`). */
export function relatedIds(h: Harvest, family: string): fc.Arbitrary<string> {
  return fc.nat().map((n) => {
    const all = [...h.idsByFamily]
      .filter(([f]) => f === family || f.startsWith(`${family}/`))
      .flatMap(([, pool]) => pool.items);
    return all.length === 0 ? h.ids.pick(n, "x") : (all[n % all.length] as string);
  });
}

export const newHarvest = (): Harvest => ({
  ids: new Pool(),
  strings: new Pool(600),
  byName: new Map(),
  links: new Pool(),
  idsByFamily: new Map(),
});

const OPAQUE_ID = /^[a-z]+_[A-Za-z0-9]{8,}$/;

/**
 * Takes ids, strings, values and links out of a response body (never `excluded` ids); `family` is
 * the static part of the path that answered it.
 */
export function harvest(
  into: Harvest,
  value: unknown,
  origin: string,
  excluded: Set<string>,
  family: string,
): void {
  let familyIds = into.idsByFamily.get(family);
  if (!familyIds) {
    familyIds = new Pool();
    into.idsByFamily.set(family, familyIds);
  }
  const ids = familyIds;
  const walk = (node: unknown, name: string | null, depth: number) => {
    if (depth > 12) return;
    if (typeof node === "string") {
      if (node.startsWith(origin)) into.links.add(node.slice(origin.length));
      if (node.length <= 100) into.strings.add(node);
      // Ids are opaque prefixed tokens (`rnd_…`); a layer `id` inside a template document is not one.
      if (
        name !== null &&
        (name === "id" || name.endsWith("_id")) &&
        OPAQUE_ID.test(node) &&
        !excluded.has(node)
      ) {
        into.ids.add(node);
        ids.add(node);
      }
    }
    if (name !== null && node !== null && JSON.stringify(node).length < 20_000) {
      let pool = into.byName.get(name);
      if (!pool) {
        pool = new Pool(30);
        into.byName.set(name, pool);
      }
      if (typeof node !== "string" || !excluded.has(node)) pool.add(node);
    }
    if (Array.isArray(node)) for (const item of node) walk(item, null, depth + 1);
    else if (typeof node === "object" && node !== null) {
      for (const [key, child] of Object.entries(node)) walk(child, key, depth + 1);
    }
  };
  walk(value, null, 0);
}

/** Values harvested under `name` or `*_name` (e.g. `cursor` also takes `next_cursor`). */
function namedValues(h: Harvest, name: string): fc.Arbitrary<unknown> | null {
  const matches = (k: string) => k === name || k.endsWith(`_${name}`);
  if (![...h.byName.keys()].some(matches)) return null;
  return fc.nat().map((n) => {
    const all = [...h.byName].filter(([k]) => matches(k)).flatMap(([, p]) => p.items);
    return all.length === 0 ? null : all[n % all.length];
  });
}

// ---------------------------------------------------------------------------------------------
// Strange values.

/** Builds a value nested `depth` levels deep in arrays or objects. */
export const nested = (depth: number, asObject: boolean): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
};

export const weirdString = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "NaN",
      "Infinity",
      "-Infinity",
      "1e999",
      "-0",
      "null",
      "true",
      "0",
      "2",
      "__proto__",
      "constructor",
      "prototype",
      "\u0000",
      "%00",
      "..",
      "../../etc/passwd",
      "%2e%2e%2f",
      "<script>alert(1)</script>",
      "'; DROP TABLE renders; --",
      "\ud83d\ude00\u200b\u202e",
      "#FFF",
      "red",
      "#GGGGGG",
      "asset://",
      "http://127.0.0.1/",
      "file:///etc/passwd",
      "{{7*7}}",
    ),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.integer({ min: 200, max: 70_000 }).map((n) => "x".repeat(n)),
    fc.integer({ min: 50, max: 2_000 }).map((n) => "\u00e9\ud83d\ude00".repeat(n)),
  );

export const weirdValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom<unknown>(
      1e308,
      -1e308,
      2 ** 53 + 1,
      -(2 ** 63),
      0,
      -1,
      1.5,
      4.01,
      0.5,
      true,
      false,
      null,
      [],
      {},
      [null],
      { "": "" },
    ),
    weirdString(),
    fc.jsonValue({ maxDepth: 3 }),
    fc
      .tuple(fc.integer({ min: 10, max: 80 }), fc.boolean())
      .map(([depth, asObject]) => nested(depth, asObject)),
  );

/** An object whose own key is `__proto__` (JSON.stringify writes it; a literal would set the prototype). */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

// ---------------------------------------------------------------------------------------------
// JSON Schema → arbitrary of conforming values.

export interface GenContext {
  harvest: Harvest;
  /** URLs for url-like fields: allow-listed loopback images, blocked addresses, asset references. */
  urls: fc.Arbitrary<string>;
  /** Ids of both accounts (and keys such as template keys) for id-like fields. */
  ids: fc.Arbitrary<string>;
  /** Bodies the server accepted earlier, for unconstrained values (a batch's rows). */
  accepted: Pool<unknown>;
  /** Replacements for some fields whose legitimate values take long (e.g. `wait`). */
  overrides: Record<string, fc.Arbitrary<unknown>>;
}

const URL_FIELD = /(^|_)(url|src)$/;

export function conforming(
  schema: Schema,
  ctx: GenContext,
  name: string | null = null,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (name !== null && ctx.overrides[name]) return ctx.overrides[name] as fc.Arbitrary<unknown>;
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => conforming(s, ctx, name, depth + 1)));
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { type: "object", properties: {}, required: [] };
    for (const part of schema.allOf as Schema[]) {
      Object.assign(merged.properties, part.properties);
      merged.required.push(...(part.required ?? []));
    }
    return conforming(merged, ctx, name, depth);
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => conforming({ ...schema, type }, ctx, name, depth)));
  const named = name !== null ? namedValues(ctx.harvest, name) : null;
  switch (types[0]) {
    case "string":
      return stringOf(schema, ctx, name, named);
    case "integer":
    case "number": {
      const min =
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1e6);
      const max =
        schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1e6);
      const numbers =
        types[0] === "integer"
          ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
          : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      return numbers as fc.Arbitrary<unknown>;
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = schema.items
        ? conforming(schema.items as Schema, ctx, name, depth + 1)
        : fc.jsonValue({ maxDepth: 2 });
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? 4, minLength + 4);
      return fc.array(items, { minLength, maxLength });
    }
    case "object":
      return objectOf(schema, ctx, depth);
    default:
      // Unconstrained (`document`, batch rows): values the server itself produced under that name,
      // bodies it accepted before, or any small JSON.
      return fc.oneof(
        { arbitrary: named ?? fc.jsonValue({ maxDepth: 3 }), weight: 3 },
        { arbitrary: ctx.accepted.arbitrary({}), weight: 3 },
        { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
      );
  }
}

function stringOf(schema: Schema, ctx: GenContext, name: string | null, named: fc.Arbitrary<unknown> | null) {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 10_000;
  const fits = (s: unknown): s is string =>
    typeof s === "string" &&
    s.length >= minLength &&
    s.length <= maxLength &&
    (!schema.pattern || new RegExp(schema.pattern as string).test(s));
  const options: fc.Arbitrary<string>[] = [];
  if (schema.pattern) options.push(fc.stringMatching(new RegExp(schema.pattern as string)).filter(fits));
  else if (schema.format === "date-time")
    options.push(
      fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString()),
    );
  else {
    options.push(fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 24) }));
    const base = options[0] as fc.Arbitrary<string>;
    options.push(fitOr(ctx.harvest.strings.arbitrary(""), fits, base));
    if (name !== null && URL_FIELD.test(name))
      options.push(fitOr(ctx.urls, fits, base), fitOr(ctx.urls, fits, base));
    if (name !== null && (name === "id" || name.endsWith("_id") || name === "template")) {
      options.push(fitOr(ctx.ids, fits, base), fitOr(ctx.ids, fits, base));
    }
  }
  const base = options[0] as fc.Arbitrary<string>;
  if (named) options.push(fitOr(named, fits, base), fitOr(named, fits, base));
  return fc.oneof(...options);
}

/** Values of `source` that pass `fits`, else a value of `fallback` (a filter could spin forever). */
function fitOr<T>(source: fc.Arbitrary<unknown>, fits: (v: unknown) => v is T, fallback: fc.Arbitrary<T>) {
  return source.chain((v) => (fits(v) ? fc.constant(v) : fallback));
}

function objectOf(schema: Schema, ctx: GenContext, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of Object.entries(properties)) model[key] = conforming(child, ctx, key, depth + 1);
  const fixed = fc.record(model, { requiredKeys: [...required] });
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false || Object.keys(properties).length > 0) {
    return fixed.filter((v) => (schema.minProperties ?? 0) <= Object.keys(v as object).length);
  }
  // A record (`additionalProperties: schema`): a few keys, mostly strings the server already knows.
  const values =
    extra === true ? fc.jsonValue({ maxDepth: 2 }) : conforming(extra as Schema, ctx, null, depth + 1);
  const someKey = fc.string({ minLength: 1, maxLength: 12 });
  const keys = fc.oneof(
    someKey,
    fitOr(
      ctx.harvest.strings.arbitrary(""),
      (k): k is string => typeof k === "string" && k.length > 0 && k.length <= 100,
      someKey,
    ),
  );
  return fc.dictionary(keys, values, {
    minKeys: schema.minProperties ?? 0,
    maxKeys: Math.min(schema.maxProperties ?? 4, 4),
    noNullPrototype: true,
  });
}

// ---------------------------------------------------------------------------------------------
// Mutations of a conforming value.

type Step = [string | number, ...(string | number)[]] | [];

function pathsOf(
  value: unknown,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
  depth = 0,
) {
  out.push(prefix);
  if (depth > 8) return out;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) pathsOf(item, [...prefix, i], out, depth + 1);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) pathsOf(child, [...prefix, key], out, depth + 1);
  }
  return out;
}

function parentOf(root: unknown, path: (string | number)[]): Record<string | number, unknown> | null {
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  return typeof node === "object" && node !== null ? node : null;
}

export interface Mutation {
  kind: "replace" | "delete" | "add" | "wrap";
  at: number;
  key: string;
  value: unknown;
}

export const mutation = (): fc.Arbitrary<Mutation> =>
  fc.record({
    kind: fc.constantFrom("replace", "replace", "delete", "add", "wrap"),
    at: fc.nat(),
    key: fc.oneof(
      fc.constantFrom("__proto__", "constructor", "prototype", "", "extra"),
      fc.string({ maxLength: 10 }),
    ),
    value: fc.oneof(
      weirdValue(),
      fc.constant({ prototype: { polluted: true } }),
      fc.constant({ polluted: true }),
    ),
  });

/** Applies mutations to a deep copy; `null` means the root itself was replaced by the returned value. */
export function mutate(value: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(value);
  for (const m of mutations) {
    const paths = pathsOf(root) as Step[];
    const path = paths[m.at % paths.length] as (string | number)[];
    const parent = path.length > 0 ? parentOf(root, path) : null;
    const last = path.at(-1);
    const current = path.length === 0 ? root : parent?.[last as string];
    const next =
      m.kind === "wrap"
        ? m.at % 2 === 0
          ? [current]
          : { value: current }
        : m.kind === "add" && typeof current === "object" && current !== null && !Array.isArray(current)
          ? withOwnKey({ ...(current as object) }, m.key, structuredClone(m.value))
          : m.kind === "delete"
            ? undefined
            : structuredClone(m.value);
    if (path.length === 0 || parent === null) {
      root = next === undefined ? {} : next;
    } else if (next === undefined) {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last as string];
    } else if (last === "__proto__") {
      withOwnKey(parent as Record<string, unknown>, "__proto__", next);
    } else {
      parent[last as string] = next;
    }
  }
  return root;
}

// ---------------------------------------------------------------------------------------------
// Requests.

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD). */
export function pct(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Header values must be latin-1 without control characters (Node refuses others). */
export const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, "?");

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Which key signs it, for the isolation checks. */
  auth: "own" | "other" | "none" | "invalid";
  /** Path parameter values drawn from the other account's ids (seen from `auth`). */
  foreignIds: string[];
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export function send(port: number, req: FuzzRequest, timeoutMs = 20_000): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const r = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.path,
        // Framed by Content-Length: a GET body without it would run into the next request.
        headers:
          req.body === undefined
            ? req.headers
            : { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (error) => {
          if (!settled) reject(error);
          settled = true;
        });
        res.on("end", () => {
          settled = true;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          });
        });
      },
    );
    r.setTimeout(timeoutMs, () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    const here = `${req.method} ${req.path.slice(0, 100)} ${JSON.stringify(req.headers).slice(0, 200)} body=${String(req.body ?? "").slice(0, 100)} (${req.body?.length ?? 0})`;
    let previous = "";
    r.on("socket", (socket) => {
      const s = socket as unknown as { lastRequest?: string; uses?: number };
      previous = `${s.lastRequest ?? "fresh socket"} uses=${s.uses ?? 0}`;
      s.lastRequest = here;
      s.uses = (s.uses ?? 0) + 1;
    });
    r.on("error", (error) => {
      // A server may answer (413) and close before reading an oversized body: the answer counts.
      error.message += ` [previous on this socket: ${previous}]`;
      if (!settled) reject(error);
      settled = true;
    });
    r.end(req.body);
  });
}

export const agentClose = () => agent.destroy();

// ---------------------------------------------------------------------------------------------
// Responses against the document.

/** Every header name some response of the document declares (lower case). */
export function declaredHeaderNames(document: Schema): Set<string> {
  const out = new Set<string>();
  for (const { operation } of operationsOf(document)) {
    for (const response of Object.values((operation.responses ?? {}) as Record<string, Schema>)) {
      for (const name of Object.keys(response.headers ?? {})) out.add(name.toLowerCase());
    }
  }
  return out;
}

const TEMPLATE_DOCUMENT = "TemplateDocument";
const TEMPLATE_DOCUMENT_KEYWORD = "x-template-document";

/**
 * The served document with the template document's schema made opaque, for dereferencing and for
 * generating values: that schema's layers refer to each other (a group holds layers), which
 * dereferencing would unroll without end. Each reference to it becomes a marker that the response
 * validator checks against the real component (and that generation fills with documents the server
 * answered with), and the components only it uses are dropped.
 */
export function opaqueTemplateDocuments<T extends object>(served: T): T {
  const copy = structuredClone(served) as T & { components: { schemas: Record<string, unknown> } };
  const schemas = copy.components.schemas;
  const refName = (node: unknown) => {
    const ref = (node as { $ref?: unknown } | null)?.$ref;
    return typeof ref === "string" && ref.startsWith("#/components/schemas/")
      ? ref.slice("#/components/schemas/".length)
      : undefined;
  };
  const refsIn = (node: unknown, out: Set<string>) => {
    if (typeof node !== "object" || node === null) return out;
    const name = refName(node);
    if (name !== undefined && !out.has(name)) {
      out.add(name);
      refsIn(schemas[name], out);
    }
    for (const child of Object.values(node)) refsIn(child, out);
    return out;
  };
  const documentOnly = refsIn(schemas[TEMPLATE_DOCUMENT], new Set([TEMPLATE_DOCUMENT]));
  for (const name of documentOnly) delete schemas[name];
  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace);
    if (typeof node !== "object" || node === null) return node;
    if (refName(node) === TEMPLATE_DOCUMENT) {
      const { $ref: _ref, ...rest } = node as Record<string, unknown>;
      return { ...rest, [TEMPLATE_DOCUMENT_KEYWORD]: true };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replace(v)]));
  };
  return replace(copy) as T;
}

/**
 * Checks answers against the document: the exact status (no `4XX` range), its body and content
 * type, and its headers: each required one present, and none the document declares elsewhere
 * (`known`: Location, ETag, RateLimit, Retry-After, …) sent where this response does not declare it.
 */
export function responseValidator(known: Set<string> = new Set(), served?: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  if (served) {
    // Template documents in answers are checked against the served TemplateDocument component,
    // compiled from the document as served (its layers refer to each other, see opaqueTemplateDocuments).
    ajv.addSchema(served, "openapi.json");
    const isTemplateDocument = ajv.compile({ $ref: `openapi.json#/components/schemas/${TEMPLATE_DOCUMENT}` });
    ajv.addKeyword({
      keyword: TEMPLATE_DOCUMENT_KEYWORD,
      validate: (_: unknown, data: unknown) => isTemplateDocument(data),
    });
  }
  ajv.addFormat("date-time", {
    validate: (s: string) =>
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(s) && !Number.isNaN(Date.parse(s)),
  });
  // By text: the error responses of many operations are the same schema (compiled once).
  const byText = new Map<string, ValidateFunction>();
  const cache = new Map<object, ValidateFunction>();
  const compile = (schema: object) => {
    let validate = cache.get(schema);
    if (!validate) {
      const text = JSON.stringify(schema);
      validate = byText.get(text) ?? ajv.compile(schema);
      byText.set(text, validate);
      cache.set(schema, validate);
    }
    return validate;
  };

  /** Everything wrong with `res` as an answer of `op` per the document; empty when it conforms. */
  return function problems(op: Operation, res: RawResponse): string[] {
    const out: string[] = [];
    if (res.status >= 500) out.push(`status ${res.status}`);
    const requestId = res.headers["x-request-id"];
    if (typeof requestId !== "string" || requestId === "") out.push("no X-Request-Id header");
    const responses = op.operation.responses as Record<string, Schema>;
    const status = String(res.status);
    const declared = responses[status];
    if (!declared)
      return [
        ...out,
        `status ${status} is not in the document (declared: ${Object.keys(responses).join(", ")})`,
      ];
    const headers = Object.fromEntries(
      Object.entries((declared.headers ?? {}) as Record<string, Schema>).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    );
    for (const [name, header] of Object.entries(headers)) {
      if (header.required && res.headers[name] === undefined) out.push(`required header ${name} missing`);
    }
    for (const name of Object.keys(res.headers)) {
      if (known.has(name) && !headers[name]) out.push(`header ${name} sent but not declared for ${status}`);
    }
    const content = declared.content as Record<string, { schema?: Schema }> | undefined;
    const type = (res.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!content) {
      if (res.body.length > 0)
        out.push(`status ${status} is documented without a body, got ${res.body.length} bytes of ${type}`);
      return out;
    }
    const media = Object.keys(content).find(
      (m) => m === type || (m.endsWith("/*") && type.startsWith(m.slice(0, -1))) || m === "*/*",
    );
    if (!media)
      return [
        ...out,
        `content type '${type}' not documented for ${status} (${Object.keys(content).join(", ")})`,
      ];
    if (!/json/.test(type)) {
      if (res.body.length === 0) out.push(`empty ${type} body`);
      return out;
    }
    let body: unknown;
    try {
      body = JSON.parse(res.body.toString("utf8"));
    } catch {
      return [...out, `body is not JSON: ${res.body.toString("utf8").slice(0, 200)}`];
    }
    const schema = content[media]?.schema;
    if (schema) {
      const validate = compile(schema);
      if (!validate(body)) {
        out.push(
          `body does not match the ${status} schema: ${ajv.errorsText(validate.errors, { separator: "; " })}`,
        );
      }
    }
    const error = (body as { error?: { request_id?: unknown } } | null)?.error;
    if (res.status >= 400 && error && error.request_id !== requestId) {
      out.push(`error.request_id ${String(error.request_id)} is not the X-Request-Id ${String(requestId)}`);
    }
    return out;
  };
}
