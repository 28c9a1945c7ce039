import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DOCS_DIR } from "../../src/http/llms/docs-index.ts";
import { startTestServer, type TestServer } from "../api/support.ts";

// /llms.txt and /llms-full.txt as a server serves them, made from the repository's docs/.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const docFiles = readdirSync(DOCS_DIR).filter((name) => name.endsWith(".md"));

it("/llms.txt follows the llmstxt.org shape and every link it lists answers 200", async () => {
  const res = await fetch(`${t.url}/llms.txt`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  const text = await res.text();
  const lines = text.split("\n");
  expect(lines[0]).toBe("# Pictor");
  expect(lines[2]).toMatch(/^> Pictor is an open-source, self-hostable image render service/);
  expect(lines).toContain("## Docs");
  expect(lines).toContain("## Optional");
  const links = [...text.matchAll(/\]\((http[^)\s]+)\)/g)].map((m) => m[1] as string);
  // Every page of docs/, the OpenAPI document and its page.
  expect(links.length).toBe(docFiles.length + 2);
  for (const file of docFiles) expect(links).toContain(`${t.url}/llms/${file}`);
  for (const link of links) {
    const linked = await fetch(link);
    expect(linked.status, link).toBe(200);
    await linked.arrayBuffer();
  }
  // Each page as its file in docs/, byte for byte.
  const api = await (await fetch(`${t.url}/llms/api.md`)).text();
  expect(api).toBe(readFileSync(join(DOCS_DIR, "api.md"), "utf8"));
  expect((await fetch(`${t.url}/llms/nope.md`)).status).toBe(404);
});

it("/llms-full.txt holds every page of docs/ whole", async () => {
  const res = await fetch(`${t.url}/llms-full.txt`);
  expect(res.status).toBe(200);
  const text = await res.text();
  for (const file of docFiles) {
    expect(text).toContain(readFileSync(join(DOCS_DIR, file), "utf8").trimEnd());
  }
});
