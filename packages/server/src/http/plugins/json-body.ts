import { MAX_DOCUMENT_JSON_DEPTH } from "../../domain/document.ts";
import { ApiError } from "../errors.ts";
import { globalPlugin } from "./global-plugin.ts";

/**
 * Deepest nesting of arrays/objects accepted in a JSON body: a template document's own limit (the
 * engine's 128, room for the 32 levels of group nesting the docs allow) plus the `document` field
 * that carries it, so the engine, not this scan, decides about a document and names the path. Other
 * bodies need < 10; 129 levels are still far from any stack limit.
 */
export const MAX_JSON_DEPTH = MAX_DOCUMENT_JSON_DEPTH + 1;

/**
 * Returns the deepest array/object nesting in `text`, stopping as soon as it exceeds `limit`.
 * Runs before JSON.parse so a 10,000-level body is refused in one linear scan, before it can reach
 * the recursive code behind the parser (prototype scan, validation, serialisers).
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote with indexOf: a quote after an odd run of backslashes is escaped.
      // Measured on a 1 MiB text-heavy body: 5.6 ms with a char loop, 0.1 ms this way (a 2 MB
      // dense array: 4.3 ms, against 25 ms for JSON.parse itself).
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false; // unterminated string: JSON.parse reports it
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

export interface JsonBodyOptions {
  maxDepth?: number;
}

/**
 * The only body parser of the JSON API. Replaces Fastify's `application/json` and drops its
 * `text/plain` parser, so any other content type is 415 unsupported_media_type (upload routes
 * register multipart themselves). The body limit is Fastify's `bodyLimit` (server option, 1 MiB,
 * or per route e.g. 10 MiB for batch): Fastify refuses an oversized Content-Length before reading
 * and stops a chunked body as soon as it passes the limit, so 413 never buffers the whole body.
 *
 * Decision: `__proto__` keys and `constructor.prototype` are refused as 400 invalid_request (the
 * body IS well-formed JSON, so invalid_json would mislead); syntax errors, empty bodies and
 * nesting deeper than MAX_JSON_DEPTH (129) are 400 invalid_json.
 */
export const jsonBodyPlugin = globalPlugin<JsonBodyOptions>("pictor-json-body", async (app, options) => {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const secureParse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === "") {
      done(new ApiError("invalid_json", "The request body is empty; send a JSON object."), undefined);
      return;
    }
    if (jsonDepthExceeds(text, maxDepth)) {
      done(new ApiError("invalid_json", `The request body nests deeper than ${maxDepth} levels.`), undefined);
      return;
    }
    secureParse(request, text, (error, value) => {
      if (!error) {
        done(null, value);
        return;
      }
      // Fastify's parser hides why it failed; parsing again (error path only) tells a syntax
      // error, whose message we pass on, from a forbidden key in otherwise valid JSON.
      let syntax: string | undefined;
      try {
        JSON.parse(text);
      } catch (parseError) {
        syntax = (parseError as Error).message;
      }
      if (syntax === undefined) {
        done(
          new ApiError(
            "invalid_request",
            "The request body contains a forbidden key ('__proto__' or 'constructor.prototype').",
          ),
          undefined,
        );
        return;
      }
      done(new ApiError("invalid_json", `The request body is not valid JSON: ${syntax}`), undefined);
    });
  });
});
