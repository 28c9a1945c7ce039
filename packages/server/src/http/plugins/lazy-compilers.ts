import SerializerSelector from "@fastify/fast-json-stringify-compiler";

/**
 * Fastify compiles every route's validators (Ajv) and response serializers (fast-json-stringify)
 * when the route is added: about 60 generated functions, most of them for routes or error statuses a
 * server may never answer, kept in the API thread's heap for good. These factories hand Fastify a
 * stand-in that compiles the real function on its first call: the same function, the same answers,
 * only built later (the first request of a route pays its compile, a few milliseconds).
 *
 * A schema Fastify would refuse at start is refused on first use instead; `compilePending()` builds
 * everything still deferred, so a test can check that every route's schemas compile.
 */

type Compile<F> = () => F;
const pending = new Set<() => unknown>();

/** Builds every validator and serializer not built yet (their errors are thrown, as at start). */
export function compilePending(): void {
  for (const build of [...pending]) build();
}

function once<F>(compile: Compile<F>): () => F {
  let built: F | undefined;
  const build = () => {
    if (built === undefined) {
      built = compile();
      pending.delete(build);
    }
    return built;
  };
  pending.add(build);
  return build;
}

/** What Fastify reads from an Ajv validate function besides calling it. */
interface ValidateLike {
  (...args: unknown[]): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/**
 * A validator that compiles on first use. Fastify reads `schemaEnv` (whether to pass the parent
 * object, for Ajv's root coercion) before calling, and `errors` after a failed call: both are the
 * real function's.
 */
function lazyValidator(compile: Compile<ValidateLike>): ValidateLike {
  const real = once(compile);
  const stand = ((...args: unknown[]) => real()(...args)) as ValidateLike;
  Object.defineProperties(stand, {
    errors: { get: () => real().errors, set: (value) => (real().errors = value) },
    schemaEnv: { get: () => real().schemaEnv },
  });
  return stand;
}

// biome-ignore lint/suspicious/noExplicitAny: Fastify's compiler factories are typed per library.
type Factory = (externalSchemas: any, options: any) => (routeDefinition: any) => any;

/** Wraps a `compilersFactory.buildValidator`: the factory itself (an Ajv instance) is built on first use too. */
export function lazyValidatorFactory(factory: Factory): Factory {
  return (externalSchemas, options) => {
    let compiler: ReturnType<Factory> | undefined;
    return (routeDefinition) =>
      lazyValidator(() => {
        compiler ??= factory(externalSchemas, options);
        return compiler(routeDefinition) as ValidateLike;
      });
  };
}

/** Fastify's own serializer factory (fast-json-stringify), compiling each serializer on first use. */
export function lazySerializerFactory(factory: Factory = SerializerSelector() as Factory): Factory {
  return (externalSchemas, options) => {
    let compiler: ReturnType<Factory> | undefined;
    return (routeDefinition) => {
      const real = once(() => {
        compiler ??= factory(externalSchemas, options);
        return compiler(routeDefinition) as (data: unknown) => string;
      });
      return (data: unknown) => real()(data);
    };
  };
}
