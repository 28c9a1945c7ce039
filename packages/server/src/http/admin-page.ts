import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { OperatorSummary } from "../domain/operator-summary.ts";

export interface AdminPageOptions {
  /** The operator's token (PICTOR_OPERATOR_TOKEN): the summary answers only `Bearer <token>`. */
  token: string;
  summary(): Promise<OperatorSummary>;
}

/** Outside the API's accounts (no account key opens it), never rate limited, not API traffic. */
const OPERATIONAL = { public: true, rateLimit: false, operational: true } as const;
const hide = { hide: true };

/**
 * The operator's page: `GET /admin` is a static page that asks for the operator token (kept in the
 * tab's sessionStorage) and shows `GET /admin/summary`, which needs it as a bearer token. An account's
 * API key is not an operator's: it gets 401 like no token.
 */
export function registerAdminPage(app: FastifyInstance, options: AdminPageOptions): void {
  const expected = createHash("sha256").update(`Bearer ${options.token}`).digest();
  app.get("/admin", { config: OPERATIONAL, schema: hide }, async (_request, reply) =>
    reply
      .header("content-type", "text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header(
        "content-security-policy",
        `default-src 'none'; connect-src 'self'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'`,
      )
      .send(PAGE),
  );
  app.get("/admin/summary", { config: OPERATIONAL, schema: hide }, async (request, reply) => {
    // Both sides hashed: equal lengths for timingSafeEqual whatever was sent.
    const given = createHash("sha256")
      .update(request.headers.authorization ?? "")
      .digest();
    if (!timingSafeEqual(given, expected)) {
      return reply
        .code(401)
        .header("www-authenticate", 'Bearer realm="operator"')
        .header("cache-control", "no-store")
        .send({ error: { code: "unauthorized", message: "The operator's page needs the operator token." } });
    }
    return reply.header("cache-control", "no-store").send(await options.summary());
  });
}

const SCRIPT = `
const token = () => sessionStorage.getItem("pictor-operator-token");
const show = (id, text) => { document.getElementById(id).textContent = text; };
async function refresh() {
  if (!token()) return;
  const res = await fetch("/admin/summary", { headers: { authorization: "Bearer " + token() } });
  if (res.status === 401) { sessionStorage.removeItem("pictor-operator-token"); show("status", "Wrong token."); return; }
  const s = await res.json();
  const last = s.renders_per_minute.slice(-5);
  show("status", "Last hour, updated " + new Date().toLocaleTimeString() + (s.truncated ? " (latest renders only)" : ""));
  show("rpm", last.join(" / ") + " (last 5 minutes); peak " + Math.max(...s.renders_per_minute) + "/min");
  show("ended", s.completed + " completed, " + s.failed + " failed");
  show("failures", s.failures.length ? s.failures.map((f) => f.code + ": " + f.count).join(", ") : "none");
  show("durations", s.duration_seconds ? "p50 " + s.duration_seconds.p50 + " s, p95 " + s.duration_seconds.p95 + " s" : "no renders");
  show("queue", s.queue.depth + " queued, oldest " + s.queue.oldest_age_seconds + " s");
  show("webhooks", s.webhook_backlog + " callbacks pending");
}
document.getElementById("login").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem("pictor-operator-token", document.getElementById("token").value);
  refresh();
});
refresh();
setInterval(refresh, 15000);
`;
const SCRIPT_HASH = createHash("sha256").update(SCRIPT).digest("base64");

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pictor operator</title>
<style>body{font:15px system-ui,sans-serif;margin:2rem;max-width:48rem}dt{font-weight:600;margin-top:.8rem}</style>
</head><body>
<h1>Pictor operator</h1>
<form id="login"><label>Operator token <input id="token" type="password" autocomplete="off"></label> <button>Show</button></form>
<p id="status">Enter the operator token (PICTOR_OPERATOR_TOKEN).</p>
<dl>
<dt>Renders per minute</dt><dd id="rpm">-</dd>
<dt>Renders ended</dt><dd id="ended">-</dd>
<dt>Failures by code</dt><dd id="failures">-</dd>
<dt>Duration, accepted to ended</dt><dd id="durations">-</dd>
<dt>Queue</dt><dd id="queue">-</dd>
<dt>Webhook backlog</dt><dd id="webhooks">-</dd>
</dl>
<script>${SCRIPT}</script>
</body></html>
`;
