import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteIdempotencyStore } from "../../src/adapters/sqlite/idempotency-store.ts";
import {
  type HttpPluginsOptions,
  httpServerOptions,
  registerHttpPlugins,
} from "../../src/http/plugins/index.ts";

export interface TestApp {
  app: FastifyInstance;
  url: string;
  store: SqliteIdempotencyStore;
  close(): Promise<void>;
}

/**
 * A real Fastify app with all the cross-cutting plugins, listening on 127.0.0.1:0. A stand-in auth
 * hook (the real one lives with the routes) takes `Authorization: Bearer <account id>`.
 */
export async function startApp(
  addRoutes: (app: FastifyInstance) => void,
  options: Partial<HttpPluginsOptions> & { bodyLimit?: number } = {},
): Promise<TestApp> {
  const db = openDatabase(":memory:");
  const store = new SqliteIdempotencyStore(db);
  const app = Fastify({ logger: false, ...httpServerOptions({ bodyLimit: options.bodyLimit }) });
  app.addHook("onRequest", async (request: FastifyRequest) => {
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "");
    if (match?.[1]) (request as FastifyRequest & { accountId?: string }).accountId = match[1];
  });
  await registerHttpPlugins(app, {
    idempotency: options.idempotency ?? { store },
    rateLimit: options.rateLimit ?? false,
    ...(options.openApi ? { openApi: options.openApi } : {}),
  });
  addRoutes(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    store,
    close: async () => {
      await app.close();
      db.close();
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them.
type Loose = Record<string, any>;

export async function json(response: Response): Promise<Loose> {
  return (await response.json()) as Loose;
}
