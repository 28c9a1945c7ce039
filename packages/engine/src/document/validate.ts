import { migrateDocument } from "./migrate.ts";
import type { TemplateDocumentT } from "./schema.ts";
import { motionErrors } from "./validate-motion.ts";
import type { ValidationError } from "./validate-paths.ts";
import { isTemplateDocument, MAX_ERRORS, schemaErrors } from "./validate-schema.ts";
import { semanticErrors } from "./validate-semantics.ts";
import { checkStructure } from "./validate-structure.ts";

export type { ValidationError } from "./validate-paths.ts";

export type DocumentValidationResult =
  | { ok: true; document: TemplateDocumentT }
  | { ok: false; errors: ValidationError[] };

/**
 * Validates a template document of any supported version: structural sanity (depth, no cycles), then
 * migration to the current version, then the current schema, then the semantic rules. Errors name JSON paths
 * of the migrated document (`frames[1].layers[3].font.size`), one per problem, at most MAX_ERRORS.
 * Never throws; a valid current-version document is returned as the same object, unmodified.
 */
export function validateDocument(input: unknown): DocumentValidationResult {
  try {
    const structural = checkStructure(input);
    if (structural !== null) return { ok: false, errors: [structural] };
    const migrated = migrateDocument(input);
    if (!migrated.ok) return migrated;
    const doc = migrated.document;
    if (!isTemplateDocument(doc)) return { ok: false, errors: schemaErrors(doc) };
    const errors = [...semanticErrors(doc), ...motionErrors(doc)];
    if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_ERRORS) };
    return { ok: true, document: doc };
  } catch (error) {
    // Only reachable with hostile non-JSON input (throwing getters, proxies): still an answer, not a crash.
    return { ok: false, errors: [{ path: "", message: `could not be read: ${String(error)}` }] };
  }
}

/** `path: message` lines, for CLI output and logs. */
export function formatValidationErrors(errors: readonly ValidationError[]): string {
  return errors.map((e) => (e.path === "" ? e.message : `${e.path}: ${e.message}`)).join("\n");
}
