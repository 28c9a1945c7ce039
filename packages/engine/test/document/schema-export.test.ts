import { readdirSync, readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { exportTemplateSchema, SCHEMA_FILE } from "../../../../scripts/export-schema.ts";
import { migrateDocument } from "../../src/document/migrate.ts";
import { EXAMPLES_DIR, validDocument } from "./helpers.ts";

const committed = JSON.parse(readFileSync(SCHEMA_FILE, "utf8"));

describe("exported JSON Schema (packages/engine/schema/template-v2.schema.json)", () => {
  it("equals a fresh export of schema.ts (run `node scripts/export-schema.ts` after changing it)", () => {
    expect(committed).toEqual(JSON.parse(exportTemplateSchema()));
  });

  // A second, independent validator (Ajv, as used by Fastify) proves the file is usable JSON Schema on
  // its own, including the recursive group reference.
  const check = new Ajv({ strict: true, allErrors: true }).compile(committed);

  it.each(readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith(".json")))(
    "accepts examples/templates/%s (v1 examples as migrated)",
    (file) => {
      const result = migrateDocument(JSON.parse(readFileSync(new URL(file, EXAMPLES_DIR), "utf8")));
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      expect(check(result.document), JSON.stringify(check.errors)).toBe(true);
    },
  );

  it("rejects what the TypeBox schema rejects, deep inside nested groups", () => {
    const doc = validDocument() as ReturnType<typeof validDocument> & {
      frames: { layers: { layers: Record<string, unknown>[] }[] }[];
    };
    expect(check(doc)).toBe(true);
    const image = doc.frames[0]?.layers[2]?.layers[0];
    if (image === undefined) throw new Error("fixture changed");
    image.fit = "stretch";
    expect(check(doc)).toBe(false);
  });
});

describe("frozen v1 JSON Schema (packages/engine/schema/template-v1.schema.json)", () => {
  const v1 = new Ajv({ strict: true, allErrors: true }).compile(
    JSON.parse(readFileSync(new URL("../../schema/template-v1.schema.json", import.meta.url), "utf8")),
  );
  const v1Examples = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .filter((f) => JSON.parse(readFileSync(new URL(f, EXAMPLES_DIR), "utf8")).version === 1);

  it.each(v1Examples)("still accepts the v1 example examples/templates/%s", (file) => {
    const doc = JSON.parse(readFileSync(new URL(file, EXAMPLES_DIR), "utf8"));
    expect(v1(doc), JSON.stringify(v1.errors)).toBe(true);
  });
});
