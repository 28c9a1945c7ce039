/**
 * Renders an OpenAPI 3.1 document as one self-contained HTML page: no script, no CDN, no external
 * stylesheet, so it works offline and under a strict CSP. Operations are listed by path with their
 * parameters, request body and responses; schemas are shown as nested property tables, and
 * `$ref`s link to the schema section at the bottom.
 */

type Json = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const MAX_SCHEMA_DEPTH = 6;

export function escapeHtml(value: unknown): string {
  return String(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Escaped text with Markdown-style `code` spans rendered, as descriptions use them. */
function prose(value: unknown): string {
  return escapeHtml(value).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refName(ref: string): string {
  return ref.split("/").pop() ?? ref;
}

function anchor(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9_-]+/g, "-")}`;
}

/** One-line type summary: `string`, `integer (1–4)`, `array of Job`, `"png" | "jpg"`. */
function typeLabel(schema: Json): string {
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return `<a href="#${anchor("schema", name)}">${escapeHtml(name)}</a>`;
  }
  if (Array.isArray(schema.enum))
    return schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(" | ");
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.filter(isObject).map(typeLabel).join(" | ");
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "any");
  if (type === "array" && isObject(schema.items)) return `array of ${typeLabel(schema.items)}`;
  const bounds: string[] = [];
  if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) bounds.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) bounds.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) bounds.push(`max length ${schema.maxLength}`);
  if (schema.maxItems !== undefined) bounds.push(`max ${schema.maxItems} items`);
  if (typeof schema.format === "string") bounds.push(schema.format);
  if (typeof schema.pattern === "string") bounds.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  return `${escapeHtml(type)}${bounds.length ? ` <small>(${bounds.map((b) => (b.startsWith("pattern") ? b : escapeHtml(b))).join(", ")})</small>` : ""}`;
}

function nestedObject(schema: Json): Json | undefined {
  if (isObject(schema.properties)) return schema;
  if (isObject(schema.items) && isObject(schema.items.properties)) return schema.items;
  return undefined;
}

export function renderSchema(schema: unknown, depth = 0): string {
  if (!isObject(schema)) return "";
  const object = nestedObject(schema);
  if (!object || depth > MAX_SCHEMA_DEPTH) {
    const description = typeof schema.description === "string" ? ` — ${prose(schema.description)}` : "";
    return `<p>${typeLabel(schema)}${description}</p>`;
  }
  const required = new Set(Array.isArray(object.required) ? object.required.map(String) : []);
  const rows = Object.entries(object.properties as Json).map(([name, raw]) => {
    const property = isObject(raw) ? raw : {};
    const inner = nestedObject(property) ? renderSchema(property, depth + 1) : "";
    const description = typeof property.description === "string" ? prose(property.description) : "";
    const fallback =
      property.default !== undefined
        ? ` Default <code>${escapeHtml(JSON.stringify(property.default))}</code>.`
        : "";
    return `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ""}</td><td>${typeLabel(property)}</td><td>${description}${fallback}${inner}</td></tr>`;
  });
  const intro = object === schema ? "" : "<p>array of:</p>";
  return `${intro}<table><thead><tr><th>field</th><th>type</th><th>description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function renderParameters(parameters: unknown): string {
  if (!Array.isArray(parameters) || parameters.length === 0) return "";
  const rows = parameters.filter(isObject).map((p) => {
    const schema = isObject(p.schema) ? p.schema : {};
    const description = typeof p.description === "string" ? prose(p.description) : "";
    return `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ""}</td><td>${escapeHtml(p.in)}</td><td>${typeLabel(schema)}</td><td>${description}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function renderContent(content: unknown): string {
  if (!isObject(content)) return "";
  return Object.entries(content)
    .map(
      ([mediaType, media]) =>
        `<p class="media">${escapeHtml(mediaType)}</p>${isObject(media) ? renderSchema(media.schema) : ""}`,
    )
    .join("");
}

function renderOperation(path: string, method: string, operation: Json): string {
  const id = anchor("op", `${method}-${path}`);
  const summary = typeof operation.summary === "string" ? escapeHtml(operation.summary) : "";
  const description =
    typeof operation.description === "string" ? `<p>${prose(operation.description)}</p>` : "";
  const body = isObject(operation.requestBody)
    ? `<h4>Request body</h4>${renderContent(operation.requestBody.content)}`
    : "";
  const responses = isObject(operation.responses)
    ? `<h4>Responses</h4>${Object.entries(operation.responses)
        .map(([status, raw]) => {
          const response = isObject(raw) ? raw : {};
          const text = typeof response.description === "string" ? prose(response.description) : "";
          return `<div class="response"><p><span class="status s${escapeHtml(status[0])}">${escapeHtml(status)}</span> ${text}</p>${renderContent(response.content)}</div>`;
        })
        .join("")}`
    : "";
  return `<section class="op" id="${id}"><h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> ${summary}</h3>${description}${renderParameters(operation.parameters)}${body}${responses}</section>`;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1d2433}
h1{margin-bottom:.2rem}nav ul{columns:2;padding-left:1rem}code{font:13px ui-monospace,monospace;background:#f2f4f8;padding:0 .2rem;border-radius:3px}
.op,.schema{border:1px solid #dfe3ea;border-radius:6px;padding:.2rem 1rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4rem;text-align:center;color:#fff;border-radius:4px;font-size:13px;padding:.1rem .4rem;background:#5b6578}
.method.get{background:#2f7d32}.method.post{background:#1f5fbf}.method.delete{background:#b3261e}.method.patch,.method.put{background:#8a5a00}
table{border-collapse:collapse;width:100%;margin:.4rem 0}th,td{border:1px solid #e4e7ee;padding:.25rem .5rem;vertical-align:top;text-align:left}th{background:#f7f8fb}
.req{color:#b3261e;font-size:12px}.status{font-weight:600}.s2{color:#2f7d32}.s4{color:#8a5a00}.s5{color:#b3261e}.media{color:#5b6578;font-size:13px;margin:.2rem 0}`;

/** The whole page for `document` (an OpenAPI 3.x object). */
export function renderDocsPage(document: Json, documentPath = "/v1/openapi.json"): string {
  const info = isObject(document.info) ? document.info : {};
  const title = escapeHtml(info.title ?? "API reference");
  const paths = isObject(document.paths) ? document.paths : {};
  const operations: { path: string; method: string; operation: Json }[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isObject(operation)) operations.push({ path, method, operation });
    }
  }
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const nav = operations
    .map(({ path, method, operation }) => {
      const summary = typeof operation.summary === "string" ? ` — ${escapeHtml(operation.summary)}` : "";
      return `<li><a href="#${anchor("op", `${method}-${path}`)}">${method.toUpperCase()} ${escapeHtml(path)}</a>${summary}</li>`;
    })
    .join("");
  const schemaSections = Object.entries(schemas)
    .map(([name, schema]) => {
      const description =
        isObject(schema) && typeof schema.description === "string"
          ? `<p>${prose(schema.description)}</p>`
          : "";
      return `<section class="schema" id="${anchor("schema", name)}"><h3>${escapeHtml(name)}</h3>${description}${renderSchema(schema)}</section>`;
    })
    .join("");
  const description = typeof info.description === "string" ? `<p>${prose(info.description)}</p>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${STYLE}</style></head><body><h1>${title}</h1><p>Version ${escapeHtml(info.version ?? "")} · OpenAPI ${escapeHtml(document.openapi ?? "")} · <a href="${escapeHtml(documentPath)}">openapi.json</a></p>${description}<nav><h2>Operations</h2><ul>${nav}</ul></nav><h2>Reference</h2>${operations.map((o) => renderOperation(o.path, o.method, o.operation)).join("")}<h2>Schemas</h2>${schemaSections}</body></html>`;
}
