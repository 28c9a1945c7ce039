import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from "fastify";

/**
 * What `fastify-plugin` does, without the dependency: hooks, handlers and decorators registered by
 * the plugin apply to the instance that registers it instead of a private child context. The
 * cross-cutting plugins must reach every route, so they all go through this.
 */
export function globalPlugin<Options extends FastifyPluginOptions>(
  name: string,
  plugin: (app: FastifyInstance, options: Options) => Promise<void>,
): FastifyPluginAsync<Options> {
  const wrapped = plugin as FastifyPluginAsync<Options> & Record<symbol, unknown>;
  wrapped[Symbol.for("skip-override")] = true;
  wrapped[Symbol.for("fastify.display-name")] = name;
  wrapped[Symbol.for("plugin-meta")] = { name, fastify: "5.x" };
  return wrapped;
}
