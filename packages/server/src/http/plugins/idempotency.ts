import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { settleWhenReachable } from "../../app/idempotency-settlements.ts";
import {
  IDEMPOTENCY_LIMITS,
  type IdempotencyScope,
  type IdempotencyStore,
  type StoredResponse,
} from "../../ports/idempotency-store.ts";
import { ApiError } from "../errors.ts";
import { globalPlugin } from "./global-plugin.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Honour the `Idempotency-Key` header on this route (POST /v1/renders, /v1/batches). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /**
     * Set when this request took over its Idempotency-Key from the same request whose process died
     * before answering: the handler should look for what that one created (at or after `since`, epoch
     * ms) before creating anything.
     */
    idempotencyResume: { key: string; since: number } | null;
    /**
     * Set by a handler once it has created something (a charged render): from then on a failure
     * (5xx) keeps the key with this request for a retry to resume from, instead of freeing it for a
     * retry that would create and charge again.
     */
    idempotencyCreated: boolean;
  }
}

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const IDEMPOTENT_REPLAYED_HEADER = "idempotent-replayed";
/**
 * On a replay, the X-Request-Id of the request that produced the answer (as Stripe's
 * `Original-Request`): a replayed error body names that request, the replay's own id is new.
 */
export const ORIGINAL_REQUEST_ID_HEADER = "original-request-id";

/** Stripe's limit; printable ASCII only, since the key is echoed in logs. Batch rows' keys too. */
export const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

// Headers that describe the result itself and so are replayed; per-request ones (X-Request-Id,
// rate limit, Date) are produced afresh for the retry.
const REPLAYED_HEADERS = ["content-type", "location", "preference-applied", "link", "etag", "cache-control"];

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** How long a response is kept and replayed. Default 24 h. */
  ttlMs?: number;
  /**
   * After this long a claim whose request never finished (process killed) may be taken over by a
   * retry. Longer than any request may run: `wait` is at most 60 s. Default 5 min.
   */
  lockTimeoutMs?: number;
  /** Account of the request; default `request.accountId`, set by the auth hook (which must run first). */
  accountIdOf?: (request: FastifyRequest) => string | undefined;
  now?: () => number;
}

interface Claim {
  scope: IdempotencyScope;
  fingerprint: string;
  settled: boolean;
}

/** SHA-256 over the route and the parsed body: the same JSON re-sent, even re-formatted, matches. */
export function requestFingerprint(request: FastifyRequest): string {
  return createHash("sha256")
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n`)
    .update(JSON.stringify(request.body ?? null))
    .digest("hex");
}

function defaultAccountIdOf(request: FastifyRequest): string | undefined {
  const value = (request as FastifyRequest & { accountId?: unknown }).accountId;
  // "" is the decorator default on unauthenticated routes: not an account.
  return typeof value === "string" && value !== "" ? value : undefined;
}

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return headers;
}

/**
 * `Idempotency-Key` on routes with `config: { idempotent: true }`. Runs as a preHandler, i.e. after
 * auth and validation: a request refused before the handler leaves no entry, so fixing it and
 * retrying with the same key works (as at Stripe). Responses under 500 are stored for `ttlMs` and
 * replayed byte for byte with `Idempotent-Replayed: true`; a 5xx (nothing charged, credits
 * refunded) releases the key so the retry runs again.
 *
 * The store may be what failed (a database outage): then freeing the key cannot be written either,
 * and the request's answer must not turn into another error for it. The key is freed once the store
 * answers again (settleWhenReachable): at once for a retry reaching this process, within seconds for
 * one reaching another. An answer that cannot be stored is still sent, and its key freed the same way
 * (suspended when the request created something, so the retry resumes from it).
 */
export const idempotencyPlugin = globalPlugin<IdempotencyOptions>(
  "pictor-idempotency",
  async (app, options) => {
    const limits = {
      ttlMs: options.ttlMs ?? IDEMPOTENCY_LIMITS.ttlMs,
      lockTimeoutMs: options.lockTimeoutMs ?? IDEMPOTENCY_LIMITS.lockTimeoutMs,
    };
    const accountIdOf = options.accountIdOf ?? defaultAccountIdOf;
    const now = options.now ?? Date.now;
    const store = settleWhenReachable(options.store, {
      lockTimeoutMs: limits.lockTimeoutMs,
      now,
      onDeferred: (error, scope) =>
        app.log.warn(
          { err: error, idempotencyKey: scope.key },
          "Idempotency-Key not freed yet (its store is unreachable); retrying until it is",
        ),
    });
    app.addHook("onClose", async () => store.close());
    const claims = new WeakMap<FastifyRequest, Claim>();
    app.decorateRequest("idempotencyResume", null);
    app.decorateRequest("idempotencyCreated", false);

    /** Takes the request's key; true when it answered the request itself (a replay). */
    const claimKey = async (
      request: FastifyRequest,
      reply: FastifyReply,
      header: unknown,
    ): Promise<boolean> => {
      if (typeof header !== "string" || !VALID_KEY.test(header)) {
        throw new ApiError(
          "invalid_request",
          "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.",
          { errors: [{ path: "headers.idempotency-key", message: "is malformed" }] },
        );
      }
      const accountId = accountIdOf(request);
      if (accountId === undefined) {
        // A wiring fault (auth must run first), never the caller's: fail loudly rather than
        // silently sharing keys between accounts.
        throw new Error("idempotency: request has no accountId; register the auth hook before this plugin");
      }
      const scope = { accountId, key: header };
      const fingerprint = requestFingerprint(request);
      const state = await store.begin(scope, fingerprint, now(), limits);
      switch (state.kind) {
        case "started":
          claims.set(request, { scope, fingerprint, settled: false });
          if (state.resumeSince !== undefined) {
            request.idempotencyResume = { key: header, since: state.resumeSince };
          }
          return false;
        case "in_progress":
          throw new ApiError(
            "idempotency_key_in_use",
            "A request with this Idempotency-Key is still being processed; retry when it has finished.",
            {},
            { "retry-after": "1" },
          );
        case "mismatch":
          throw new ApiError(
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request body.",
          );
        case "completed":
          reply
            .code(state.response.status)
            .headers(state.response.headers)
            .header(IDEMPOTENT_REPLAYED_HEADER, "true")
            .send(Buffer.from(state.response.body));
          return true;
      }
    };

    /**
     * Stores the answer for replays (or frees or suspends the key when there is nothing to store).
     * Never fails: the answer is sent whatever the store does.
     */
    const settleKey = async (
      request: FastifyRequest,
      reply: FastifyReply,
      claim: Claim,
      payload: unknown,
    ) => {
      claim.settled = true;
      // Neither ever throws: a write the store refuses now is made once it answers again.
      const giveUp = () =>
        request.idempotencyCreated
          ? store.suspend(claim.scope, claim.fingerprint)
          : store.release(claim.scope, claim.fingerprint);
      const storable = typeof payload === "string" || payload instanceof Uint8Array;
      if (reply.statusCode >= 500 || !storable) return giveUp();
      const response: StoredResponse = {
        status: reply.statusCode,
        headers: { ...replayedHeaders(reply), [ORIGINAL_REQUEST_ID_HEADER]: request.id },
        body: typeof payload === "string" ? Buffer.from(payload) : payload,
      };
      try {
        await store.complete(claim.scope, claim.fingerprint, response, now());
      } catch (error) {
        request.log.warn({ err: error }, "Idempotency-Key answer not stored; the key is freed for a retry");
        await giveUp();
      }
    };

    // Callback hooks with a fast path: most requests carry no key, and an async hook would cost each
    // of them a promise and a microtask turn. A hook that answers the request itself calls no `done`.
    app.addHook("preHandler", (request, reply, done) => {
      const header = request.headers[IDEMPOTENCY_KEY_HEADER];
      if (request.routeOptions.config.idempotent !== true || header === undefined) return done();
      claimKey(request, reply, header).then((answered) => {
        if (!answered) done();
      }, done);
    });

    app.addHook("onSend", (request, reply, payload, done) => {
      const claim = claims.get(request);
      if (!claim || claim.settled) return done(null, payload);
      settleKey(request, reply, claim, payload).then(() => done(null, payload), done);
    });

    // No release on client abort: the handler may still finish and charge, and its onSend stores
    // the result for the retry. A claim whose process died is taken over after lockTimeoutMs.
  },
);
