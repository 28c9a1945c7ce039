import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrateDocument } from "@pictor/engine";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../api/support.ts";

// The served /v1/openapi.json through Redocly's own linter, recommended ruleset: no error, no warning.
const require = createRequire(import.meta.url);
const REDOCLY = join(dirname(require.resolve("@redocly/cli/package.json")), "bin/cli.js");

let t: TestServer;
const dir = mkdtempSync(join(tmpdir(), "pictor-openapi-lint-"));
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("Redocly lint (recommended) finds 0 errors and 0 warnings, and every operation has a unique operationId", async () => {
  const document = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const ids = Object.values(document.paths).flatMap((item) =>
    Object.values(item).map((op) => op.operationId),
  );
  expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);

  const file = join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(document));
  const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [REDOCLY, "lint", file, "--extends", "recommended", "--format", "json"],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
  const report = JSON.parse(run.stdout) as {
    totals: { errors: number; warnings: number };
    problems: unknown[];
  };
  expect(report.problems, run.stderr).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  expect(run.code).toBe(0);
}, 120_000);

it("names its objects: no object schema is repeated inline, and the render, asset and template are components", async () => {
  const document = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
    paths: Record<string, unknown>;
    components: { schemas: Record<string, unknown> };
  };
  const seen = new Map<string, string[]>();
  const walk = (node: unknown, at: string) => {
    if (typeof node !== "object" || node === null) return;
    const schema = node as { type?: unknown; properties?: unknown };
    if (!Array.isArray(node) && schema.type === "object" && schema.properties) {
      const text = JSON.stringify(node);
      // Small objects ({ id, deleted }) may repeat; a named thing is larger than that.
      if (text.length > 200) seen.set(text, [...(seen.get(text) ?? []), at]);
    }
    for (const [key, child] of Object.entries(node)) walk(child, `${at}/${key}`);
  };
  walk(document.paths, "");
  expect([...seen.values()].filter((places) => places.length > 1)).toEqual([]);
  expect(Object.keys(document.components.schemas)).toEqual(
    expect.arrayContaining(["Render", "Asset", "Template", "RenderRequest", "Modification", "ErrorBody"]),
  );
  const post = (document.paths["/v1/renders"] as Record<string, { responses: Record<string, unknown> }>).post;
  expect(post?.responses["202"]).toMatchObject({
    content: { "application/json": { schema: { $ref: "#/components/schemas/Render" } } },
  });
});

it("path limits are true: a parameter of its documented maxLength reaches the route, one more character is refused", async () => {
  const document = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<string, { parameters?: { in: string; name: string; schema: { maxLength?: number } }[] }>
    >;
  };
  let checked = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    const get = item.get;
    for (const param of get?.parameters?.filter((p) => p.in === "path") ?? []) {
      const max = param.schema.maxLength;
      expect(max, `${path} ${param.name}`).toBeTypeOf("number");
      const at = (n: number) =>
        path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === param.name ? "a".repeat(n) : "x"));
      // The router's refusal (one character over) is a 400 whose message the route's own answer at
      // the limit (401, 403, 404, or the route's own 400 for a missing signature) does not repeat.
      const over = await fetch(`${t.url}${at((max as number) + 1)}`);
      expect(over.status, `${path} ${param.name} at ${(max as number) + 1}`).toBe(400);
      const refusal = ((await over.json()) as { error: { message: string } }).error.message;
      const fits = await fetch(`${t.url}${at(max as number)}`);
      const answer = ((await fits.json()) as { error: { message: string } }).error.message;
      expect(answer, `${path} ${param.name} at ${max}`).not.toBe(refusal);
      checked += 1;
    }
  }
  expect(checked).toBeGreaterThan(8);
});

it("types every value it takes or returns: the template document, batch rows and row results are components", async () => {
  const document = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
    paths: Record<string, unknown>;
    components: { schemas: Record<string, unknown> };
  };
  // A schema that constrains nothing: no type, reference, combination, enum or const.
  const SHAPES = ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"];
  const untyped: string[] = [];
  const walk = (node: unknown, at: string, isSchema: boolean) => {
    if (typeof node !== "object" || node === null) return;
    if (isSchema && !Array.isArray(node) && !SHAPES.some((k) => k in node)) untyped.push(at);
    for (const [key, child] of Object.entries(node)) {
      const childIsSchema =
        ["schema", "items", "additionalProperties"].includes(key) ||
        (Array.isArray(node) && /\/(anyOf|oneOf|allOf|prefixItems)$/.test(at)) ||
        /\/(properties|schemas)$/.test(at);
      walk(child, `${at}/${key}`, childIsSchema && typeof child === "object");
    }
  };
  walk(document, "", false);
  expect(untyped).toEqual([]);
  const schemas = document.components.schemas;
  expect(Object.keys(schemas)).toEqual(
    expect.arrayContaining(["TemplateDocument", "TextLayer", "GroupLayer", "BatchRow", "BatchRowResult"]),
  );

  // The referenced document schema holds every example template as the server stores it (migrated
  // to the current version), and refuses one with a misspelt layer property.
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addSchema(document, "openapi.json");
  const isTemplateDocument = ajv.compile({ $ref: "openapi.json#/components/schemas/TemplateDocument" });
  const examples = fileURLToPath(new URL("../../../../examples/", import.meta.url));
  const files = ["templates", "animated"].flatMap((dir) =>
    readdirSync(join(examples, dir))
      .filter((f) => f.endsWith(".json"))
      .map((f) => join(examples, dir, f)),
  );
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) {
    const migrated = migrateDocument(JSON.parse(readFileSync(file, "utf8")));
    if (!migrated.ok) throw new Error(`${file}: ${JSON.stringify(migrated.errors)}`);
    expect(
      isTemplateDocument(migrated.document),
      `${file}: ${ajv.errorsText(isTemplateDocument.errors)}`,
    ).toBe(true);
  }
  const migrated = migrateDocument(JSON.parse(readFileSync(files[0] as string, "utf8")));
  const broken = structuredClone(migrated.ok ? migrated.document : {}) as {
    frames: { layers: Record<string, unknown>[] }[];
  };
  (broken.frames[0]?.layers[0] as Record<string, unknown>).colour = "#000000";
  expect(isTemplateDocument(broken)).toBe(false);
});
