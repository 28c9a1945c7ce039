import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedAddress } from "../../src/adapters/fetch/resolve-target.ts";
import { api, balanceOf, newAccount, publishTemplate } from "../api/support.ts";
import { v4, v6 } from "../fetch/loopback-servers.ts";
import { type CallbackTestServer, startCallbackServer, tinyTemplate } from "./support.ts";

// reliability-matrix "Outbound URLs", for webhook_url: refused at request time (single render and
// batch row, nothing charged), and at delivery time when the name's DNS answer changes.

/** Names a test controls; `rebind.test` answers the receiver's loopback once, then a private address. */
const dnsTable: Record<string, ResolvedAddress[]> = {
  "metadata.google.internal": [v4("169.254.169.254")],
  "ten.test": [v4("10.1.2.3")],
  "aaaa-only-ula.test": [v6("fd00::1")],
  "aaaa-only-loop.test": [v6("::1")],
  "aaaa-only-mapped.test": [v6("::ffff:169.254.169.254")],
  "mixed.test": [v4("93.184.216.34"), v4("192.168.1.1")],
  "cgnat.test": [v4("100.64.0.1")],
};
let rebindAnswers: ResolvedAddress[][] = [];
async function lookup(hostname: string): Promise<ResolvedAddress[]> {
  if (hostname === "rebind.test") {
    const answer = rebindAnswers.shift();
    if (answer) return answer;
  }
  const answer = dnsTable[hostname];
  if (!answer) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return answer;
}

let t: CallbackTestServer;
let key: string;
beforeAll(async () => {
  t = await startCallbackServer({ receivers: 1, workers: 1, lookup });
  ({ key } = await newAccount(t, 100));
  await publishTemplate(t, key, tinyTemplate());
  t.secrets.push((await api(t, "GET", "/v1/webhook-secret", { key })).body.secret);
});
afterAll(async () => {
  await t.close();
});

const REFUSED = [
  "http://127.0.0.1/",
  "http://localhost/",
  "http://[::1]/",
  "http://0.0.0.0/",
  "http://[::]/",
  "http://127.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fd00:ec2::254]/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[64:ff9b::7f00:1]/",
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://198.18.0.1/",
  "http://224.0.0.1/",
  "http://[ff02::1]/",
  "http://[fc00::1]/",
  "http://[fe80::1]/",
  "http://ten.test/",
  "http://aaaa-only-ula.test/",
  "http://aaaa-only-loop.test/",
  "http://aaaa-only-mapped.test/",
  "http://mixed.test/",
  "http://cgnat.test/",
  "http://a.com@127.0.0.1/",
  "http:\\\\127.0.0.1\\hook",
  "file:///etc/passwd",
  "gopher://127.0.0.1:70/",
  "data:text/plain,hello",
  "ftp://example.com/",
];

describe("refused at request time, nothing charged", () => {
  it.each(REFUSED)("single render: %s → 422 invalid_webhook_url", async (url) => {
    const before = await balanceOf(t, key);
    const res = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [], webhook_url: url },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_webhook_url");
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("batch: every one of them refused per row (row-level and batch-level), the good row proceeds", async () => {
    const before = await balanceOf(t, key);
    const rows = REFUSED.map((url) => ({ template: "tiny", modifications: [], webhook_url: url }));
    const res = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: {
        renders: [...rows, { template: "tiny", modifications: [], webhook_url: t.receivers[0]?.url() }],
      },
    });
    expect(res.status).toBe(202);
    const codes = res.body.renders.map((r: { error?: { code: string } }) => r.error?.code ?? "accepted");
    expect(codes).toEqual([...REFUSED.map(() => "invalid_webhook_url"), "accepted"]);
    expect(await balanceOf(t, key)).toBe(before - 1);

    const batchLevel = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: { webhook_url: "http://169.254.169.254/", renders: [{ template: "tiny", modifications: [] }] },
    });
    expect(batchLevel.body.renders[0].error.code).toBe("invalid_webhook_url");
    expect(await balanceOf(t, key)).toBe(before - 1);
  });
});

it("a name that does not exist and one resolving to a private address get the same refusal (no DNS oracle)", async () => {
  const refusal = async (url: string) => {
    const res = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [], webhook_url: url },
    });
    expect(res.status, url).toBe(422);
    const { request_id: _id, ...error } = res.body.error;
    return error;
  };
  const missing = await refusal("http://no-such-host.test/hook");
  expect(missing.code).toBe("invalid_webhook_url");
  expect(missing.message).toContain("host does not resolve to a public address");
  for (const url of ["http://ten.test/hook", "http://aaaa-only-loop.test/hook", "http://mixed.test/hook"]) {
    expect(await refusal(url), url).toEqual(missing);
  }
});

it("at delivery time: the name passed the check, then resolves to a private address → refused, nothing sent", async () => {
  const receiver = t.receivers[0] as CallbackTestServer["receivers"][0];
  // First answer (the request-time check): the allow-listed receiver. Every later one: 10.0.0.7.
  rebindAnswers = [[v4("127.0.0.1")]];
  dnsTable["rebind.test"] = [v4("10.0.0.7")];
  const res = await api(t, "POST", "/v1/renders", {
    key,
    body: { template: "tiny", modifications: [], webhook_url: `http://rebind.test:${receiver.port}/hook` },
  });
  expect(res.status).toBe(202);
  let log: { state: string; attempts: { status_code: number | null; error: string | null }[] };
  for (;;) {
    log = (await api(t, "GET", `/v1/renders/${res.body.id}/deliveries`, { key })).body;
    if (log.attempts.length > 0) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(log.state).toBe("pending");
  expect(log.attempts[0]?.status_code).toBeNull();
  expect(log.attempts[0]?.error).toMatch(/^blocked/);
  // Other tests' callbacks may still arrive here; none may carry this render.
  const reached = receiver.received.filter((c) => JSON.parse(c.rawBody.toString("utf8")).id === res.body.id);
  expect(reached).toEqual([]);
});
