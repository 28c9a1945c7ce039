import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { GENERATED_TYPES_FILE, typesFromDocument } from "../scripts/openapi-types.ts";
import { accountIn, quietEnv, type spawnServe as Spawn, scratchForPictor, spawnServe } from "./support.ts";

const { dir, children } = scratchForPictor("pictor-drift-");
let server: Awaited<ReturnType<typeof Spawn>>;
beforeAll(async () => {
  const { dir: data } = await accountIn(dir, 1);
  server = await spawnServe(data, quietEnv(), children);
});
afterAll(() => {
  server?.child.kill("SIGTERM");
});

it("the committed types equal those generated from the live server's /v1/openapi.json", async () => {
  const document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Record<string, unknown>;
  const committed = readFileSync(GENERATED_TYPES_FILE, "utf8");
  // On failure: the API changed without `npm run generate -w @pictor/client`. Run it and commit.
  expect(await typesFromDocument(document)).toBe(committed);

  // And the comparison is sharp: one new optional field in one route's body is a difference.
  const changed = structuredClone(document) as {
    components: { schemas: Record<string, { properties: object }> };
  };
  // POST /v1/renders's body is the named component RenderRequest.
  const schema = changed.components.schemas.RenderRequest;
  if (!schema) throw new Error("no RenderRequest schema in the document");
  schema.properties = { ...schema.properties, drift_probe: { type: "string" } };
  expect(await typesFromDocument(changed as never)).not.toBe(committed);
});

it("documents every request header and error body a client relies on", async () => {
  const document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string; description?: string }[];
          responses: Record<string, unknown>;
        }
      >
    >;
    components: {
      schemas: { ErrorBody: { properties: { error: { properties: Record<string, unknown> } } } };
    };
  };
  const headers = Object.values(document.paths)
    .flatMap((ops) => Object.values(ops))
    .flatMap((op) => (op.parameters ?? []).filter((p) => p.in === "header"));
  expect(headers.map((h) => h.name).sort()).toEqual(["idempotency-key", "idempotency-key", "prefer"]);
  for (const header of headers) expect(header.description, header.name).toMatch(/\w{10}/);
  for (const [path, ops] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      expect(
        Object.keys(op.responses).some((s) => /^[45]/.test(s)),
        `${method} ${path}`,
      ).toBe(true);
    }
  }
  expect(Object.keys(document.components.schemas.ErrorBody.properties.error.properties)).toEqual(
    expect.arrayContaining([
      "code",
      "message",
      "request_id",
      "slot",
      "required",
      "balance",
      "render_id",
      "errors",
    ]),
  );
});
