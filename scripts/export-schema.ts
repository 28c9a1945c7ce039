import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TemplateDocument } from "../packages/engine/src/document/schema.ts";

/**
 * Writes the template document v2 JSON Schema (draft-07, which is what TypeBox emits: tuples use the
 * array form of `items`) for editors, other languages and CI of templates-as-code repositories.
 * `template-v1.schema.json` beside it is the frozen v1 schema, kept for v1 authors' editors; it is never
 * regenerated. The committed file is compared (as parsed JSON) with a fresh export by packages/engine/test/document/schema-export.test.ts.
 *
 *   node scripts/export-schema.ts
 */
export const SCHEMA_FILE = fileURLToPath(
  new URL("../packages/engine/schema/template-v2.schema.json", import.meta.url),
);

export function exportTemplateSchema(): string {
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "Pictor template document v2",
    // JSON.stringify drops TypeBox's symbol-keyed metadata, leaving plain JSON Schema.
    ...JSON.parse(JSON.stringify(TemplateDocument)),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, exportTemplateSchema());
  // Formatted as the repository formats JSON, so `npm run format` never rewrites the committed file.
  execFileSync("npx", ["biome", "format", "--write", SCHEMA_FILE], { stdio: "ignore" });
  console.log(`wrote ${SCHEMA_FILE}`);
}
