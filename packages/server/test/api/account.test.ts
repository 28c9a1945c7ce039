import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, newAccount, startTestServer, type TestServer } from "./support.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

it("GET /v1/account returns the account with credits_balance; the ledger lists grant and charges", async () => {
  const { key, accountId } = await newAccount(t, 12);
  const account = await api(t, "GET", "/v1/account", { key });
  expect(account.body).toMatchObject({ id: accountId, name: "test", credits_balance: 12 });
  const ledger = await api(t, "GET", "/v1/account/ledger", { key });
  expect(ledger.body).toMatchObject({
    data: [{ kind: "grant", amount: 12, render_id: null }],
    next_cursor: null,
  });
  expect((await api(t, "GET", "/v1/account/ledger?cursor=abc", { key })).status).toBe(400);
  expect((await api(t, "GET", "/v1/account/ledger?order=newest", { key })).status).toBe(400);
});

it("the ledger pages newest first with order=desc, the cursor going on in that order", async () => {
  const { key, accountId } = await newAccount(t, 1);
  for (const amount of [2, 3]) await t.data.ledger.grant(accountId, amount, null, new Date().toISOString());
  const first = await api(t, "GET", "/v1/account/ledger?order=desc&limit=2", { key });
  expect(first.body.data.map((e: { amount: number }) => e.amount)).toEqual([3, 2]);
  expect(first.body.next_cursor).toBe(first.body.data[1].id);
  const rest = await api(t, "GET", `/v1/account/ledger?order=desc&limit=2&cursor=${first.body.next_cursor}`, {
    key,
  });
  expect(rest.body).toMatchObject({ data: [{ amount: 1 }], next_cursor: null });
  const oldest = await api(t, "GET", "/v1/account/ledger?limit=1", { key });
  expect(oldest.body.data[0].amount).toBe(1);
});

it("open sign-up creates an account with 30 trial credits and returns its key once", async () => {
  const res = await api(t, "POST", "/v1/accounts", { body: { name: "Ada" } });
  expect(res.status).toBe(201);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.body.account_id).toMatch(/^acct_/);
  const account = await api(t, "GET", "/v1/account", { key: res.body.api_key });
  expect(account.body).toMatchObject({ name: "Ada", credits_balance: 30 });
  expect((await api(t, "POST", "/v1/accounts", { body: {} })).status).toBe(400);
});

it("keys: create (secret once), list (prefix, last use), revoke (then 401), revoke twice 404", async () => {
  const { key } = await newAccount(t);
  const created = await api(t, "POST", "/v1/keys", { key, body: { name: "ci" } });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ name: "ci", revoked_at: null });
  expect(created.body.prefix).toBe(created.body.key.slice(0, 12));
  expect((await api(t, "GET", "/v1/account", { key: created.body.key })).status).toBe(200);

  const list = await api(t, "GET", "/v1/keys", { key });
  expect(list.body.data).toHaveLength(2);
  expect(list.body.data.every((k: Record<string, unknown>) => !("key" in k))).toBe(true);
  const used = list.body.data.find((k: { id: string }) => k.id === created.body.id);
  expect(used.last_used_at).not.toBeNull();
  expect(list.body.next_cursor).toBeNull();
  // Paged, oldest first: the account's first key, then the new one.
  const first = await api(t, "GET", "/v1/keys?limit=1", { key });
  expect(first.body.data).toEqual([list.body.data[0]]);
  expect(first.body.next_cursor).toBe(list.body.data[0].id);
  const second = await api(t, "GET", `/v1/keys?limit=1&cursor=${first.body.next_cursor}`, { key });
  expect(second.body.data.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
  expect(second.body.next_cursor).toBeNull();
  for (const query of ["limit=201", "cursor=garbage"]) {
    expect((await api(t, "GET", `/v1/keys?${query}`, { key })).status, query).toBe(400);
  }

  expect((await api(t, "DELETE", `/v1/keys/${created.body.id}`, { key })).body).toEqual({
    id: created.body.id,
    revoked: true,
  });
  expect((await api(t, "GET", "/v1/account", { key: created.body.key })).status).toBe(401);
  expect((await api(t, "DELETE", `/v1/keys/${created.body.id}`, { key })).status).toBe(404);
  expect((await api(t, "POST", "/v1/keys", { key, body: { nom: "x" } })).status).toBe(400);
});

it("an account holds at most 100 active keys; revoking one makes room", async () => {
  const { key } = await newAccount(t);
  // The account's first key is one of the 100.
  const created = [];
  for (let i = 1; i < 100; i++) {
    const res = await api(t, "POST", "/v1/keys", { key, body: {} });
    expect(res.status).toBe(201);
    created.push(res.body.id as string);
  }
  const over = await api(t, "POST", "/v1/keys", { key, body: {} });
  expect(over.status).toBe(400);
  expect(over.body.error.message).toMatch(/at most 100 active API keys/);
  expect((await api(t, "DELETE", `/v1/keys/${created[0]}`, { key })).status).toBe(200);
  expect((await api(t, "POST", "/v1/keys", { key, body: {} })).status).toBe(201);
});

it("GET /v1/openapi.json describes the endpoints and is public", async () => {
  const res = await api(t, "GET", "/v1/openapi.json");
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe("3.1.0");
  for (const path of [
    "/v1/renders",
    "/v1/renders/{id}",
    "/v1/templates",
    "/v1/templates/{id}/schema",
    "/v1/webhook-secret",
  ]) {
    expect(Object.keys(res.body.paths)).toContain(path);
  }
  expect((await fetch(`${t.url}/docs`)).status).toBe(200);

  const result = await validate(structuredClone(res.body) as never);
  expect(result.valid ? [] : result.errors).toEqual([]);
  // Every operation documents its error body.
  for (const [path, item] of Object.entries(
    res.body.paths as Record<string, Record<string, { responses: object }>>,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((s) => /^[45]/.test(s)),
        `${method} ${path}`,
      ).toBe(true);
    }
  }
  // Every write that takes a body documents it, the multipart upload included; these five are
  // actions on the resource in the path and read no body.
  const bodyless: string[] = [];
  for (const [path, item] of Object.entries(
    res.body.paths as Record<string, Record<string, { requestBody?: unknown }>>,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      if (method !== "get" && method !== "delete" && !operation.requestBody)
        bodyless.push(`${method} ${path}`);
    }
  }
  expect(bodyless.sort()).toEqual([
    "post /v1/renders/{id}/redeliver",
    "post /v1/templates/{id}/archive",
    "post /v1/templates/{id}/duplicate",
    "post /v1/templates/{id}/publish",
    "post /v1/webhook-secret/rotate",
  ]);
  const upload = res.body.paths["/v1/assets"].post.requestBody.content["multipart/form-data"].schema;
  expect(upload.required).toEqual(["file"]);
  expect(upload.properties.file.contentMediaType).toBe("application/octet-stream");
});
