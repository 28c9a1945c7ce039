// Plain JavaScript, run by bin/pictor.js before any TypeScript source is loaded.
//
// The memory settings bin/pictor.sh (`npm start`) gives Node and glibc, which they read only when a
// process starts (docs/deploy.md, "Memory"). `pictor serve` started any other way (`npx pictor
// serve`, `node packages/server/bin/pictor.js serve`) starts itself again once with them.

/** glibc's malloc settings; a value already in the environment is kept. */
export const MALLOC_DEFAULTS = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" };
/** Node's flags when PICTOR_NODE_OPTIONS is unset or empty (it replaces them, as in pictor.sh). */
export const DEFAULT_NODE_FLAGS = ["--max-semi-space-size=4"];
/**
 * Set by bin/pictor.sh and by that second start: the settings are applied, never again. Set it
 * yourself to run with Node's and glibc's own defaults.
 */
export const LAUNCHED = "PICTOR_LAUNCHED";

const flagName = (flag) => flag.split("=")[0];

/**
 * What `pictor <args>` lacks of the launcher's settings: null when nothing (another command than
 * `serve`, the marker set, or every setting there already: a flag counts as there when Node was
 * given one of the same name, in its arguments or NODE_OPTIONS); else the environment variables and
 * Node flags to start again with.
 */
export function missingLaunchSettings(args, env, execArgv) {
  if (args[0] !== "serve" || env[LAUNCHED]) return null;
  const setEnv = {};
  for (const [name, value] of Object.entries(MALLOC_DEFAULTS)) {
    if (!env[name]) setEnv[name] = value;
  }
  const given = [...execArgv, ...String(env.NODE_OPTIONS || "").split(/\s+/)].filter(Boolean).map(flagName);
  const own = String(env.PICTOR_NODE_OPTIONS || "").trim();
  const wanted = own ? own.split(/\s+/) : DEFAULT_NODE_FLAGS;
  const flags = wanted.filter((flag) => !given.includes(flagName(flag)));
  if (Object.keys(setEnv).length === 0 && flags.length === 0) return null;
  return { env: setEnv, flags };
}

/** The settings as a person would type them: `MALLOC_ARENA_MAX=2 … --max-semi-space-size=4`. */
export function describeSettings(missing) {
  return [...Object.entries(missing.env).map(([name, value]) => `${name}=${value}`), ...missing.flags].join(
    " ",
  );
}
