import { readdirSync, readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { describe, expect, it } from "vitest";
import { exportTemplateSchema, SCHEMA_FILE } from "../../../../scripts/export-schema.ts";
import { CURRENT_VERSION, migrateDocument } from "../../src/document/migrate.ts";
import { layerTypes } from "../../src/document/schema.ts";
import { validateDocument } from "../../src/document/validate.ts";
import { EXAMPLES_DIR, validDocument } from "./helpers.ts";

const committed = JSON.parse(readFileSync(SCHEMA_FILE, "utf8"));

/** The JSON documents in `dir`, as `[label, url]`. */
const jsonIn = (dir: URL, label: string): [string, URL][] =>
  readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => [`${label}${file}`, new URL(file, dir)]);

/** Every example template and every fixture document (of any version). */
const documents = [
  ...jsonIn(EXAMPLES_DIR, "examples/templates/"),
  ...jsonIn(new URL("./fixtures/", import.meta.url), "test/document/fixtures/"),
];

/** Every object in a JSON value, depth first. */
function objectsIn(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  if (typeof value !== "object" || value === null) return [];
  const object = value as Record<string, unknown>;
  return [object, ...Object.values(object).flatMap(objectsIn)];
}

describe("exported JSON Schema (packages/engine/schema/template-v4.schema.json)", () => {
  it("equals a fresh export of schema.ts (run `node scripts/export-schema.ts` after changing it)", () => {
    expect(committed).toEqual(JSON.parse(exportTemplateSchema()));
  });

  it("names the stack layer and the hug sizing (document v3 layout)", () => {
    expect(committed.$defs.StackLayer.properties.type.const).toBe("stack");
    expect(committed.$defs.Sizing.anyOf.map((s: { const: string }) => s.const)).toEqual([
      "fixed",
      "hug",
      "fill",
    ]);
    expect(committed.properties.version.const).toBe(4);
  });

  it("names a stack's repeat and the slot types number, date and list (document v3 data)", () => {
    expect(Object.keys(committed.$defs.StackLayer.properties.repeat.properties)).toEqual([
      "slot",
      "max",
      "more",
    ]);
    const slotTypes = committed.properties.slots.items.anyOf.map(
      (slot: { properties: { type: { const: string } } }) => slot.properties.type.const,
    );
    expect(slotTypes).toEqual(expect.arrayContaining(["text", "image", "color", "number", "date", "list"]));
  });

  it("names the progress and chart layers (document v3), with their bindable data and limit", () => {
    const { ProgressLayer, ChartLayer } = committed.$defs;
    expect(ProgressLayer.properties.type.const).toBe("progress");
    expect(ProgressLayer.properties.shape.anyOf.map((s: { const: string }) => s.const)).toEqual([
      "bar",
      "ring",
    ]);
    expect(ChartLayer.properties.type.const).toBe("chart");
    expect(ChartLayer.properties.kind.anyOf.map((s: { const: string }) => s.const)).toEqual([
      "bar",
      "line",
      "donut",
    ]);
    expect(ChartLayer.properties.data.maxItems).toBe(50);
  });

  it("defines each layer type once, under $defs, and refers to it from frames and groups", () => {
    // A layer's schema: an object schema whose `type` is the constant and which has a box (a slot has none).
    const isLayerOf = (node: Record<string, unknown>, type: string) => {
      const properties = node.properties as Record<string, { const?: unknown }> | undefined;
      return properties?.type?.const === type && properties.x !== undefined;
    };
    for (const type of layerTypes()) {
      const layers = objectsIn(committed).filter((node) => isLayerOf(node, type));
      expect(layers, type).toHaveLength(1);
      expect(Object.values(committed.$defs)).toContain(layers[0]);
    }
    const layerUnions = objectsIn(committed).filter(
      (node) => Array.isArray(node.anyOf) && node.anyOf.length === layerTypes().length,
    );
    expect(layerUnions).toHaveLength(2);
  });

  // A second, independent validator (Ajv, as used by Fastify) proves the file is usable JSON Schema on
  // its own, including the `$defs` and the recursive group reference.
  const check = new Ajv2019({ strict: true, allErrors: true }).compile(committed);

  it.each(documents)(`accepts %s, migrated to version ${CURRENT_VERSION}`, (_, url) => {
    const result = migrateDocument(JSON.parse(readFileSync(url, "utf8")));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.document.version).toBe(CURRENT_VERSION);
    expect(check(result.document), JSON.stringify(check.errors)).toBe(true);
    // The engine's own validator agrees.
    expect(validateDocument(result.document).ok).toBe(true);
  });

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

describe("frozen v3 JSON Schema (packages/engine/schema/template-v3.schema.json)", () => {
  const v3 = new Ajv2019({ strict: true, allErrors: true }).compile(
    JSON.parse(readFileSync(new URL("../../schema/template-v3.schema.json", import.meta.url), "utf8")),
  );
  const v3Documents = documents.filter(
    ([, url]) => (JSON.parse(readFileSync(url, "utf8")) as { version?: unknown }).version === 3,
  );

  it("covers v3 examples and the v3 fixture", () => {
    expect(v3Documents.map(([label]) => label)).toContain("test/document/fixtures/v3.json");
    expect(v3Documents.length).toBeGreaterThan(2);
  });

  it.each(v3Documents)("still accepts the v3 document %s", (_, url) => {
    const doc = JSON.parse(readFileSync(url, "utf8"));
    expect(v3(doc), JSON.stringify(v3.errors)).toBe(true);
  });
});

describe("frozen v2 JSON Schema (packages/engine/schema/template-v2.schema.json)", () => {
  const v2 = new Ajv2019({ strict: true, allErrors: true }).compile(
    JSON.parse(readFileSync(new URL("../../schema/template-v2.schema.json", import.meta.url), "utf8")),
  );
  const v2Examples = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .filter((f) => JSON.parse(readFileSync(new URL(f, EXAMPLES_DIR), "utf8")).version === 2);

  it("covers v2 examples", () => {
    expect(v2Examples.length).toBeGreaterThan(0);
  });

  it.each(v2Examples)("still accepts the v2 example examples/templates/%s", (file) => {
    const doc = JSON.parse(readFileSync(new URL(file, EXAMPLES_DIR), "utf8"));
    expect(v2(doc), JSON.stringify(v2.errors)).toBe(true);
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
