export const MALLOC_DEFAULTS: { MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string };
export const DEFAULT_NODE_FLAGS: string[];
export const LAUNCHED: "PICTOR_LAUNCHED";
export interface MissingLaunchSettings {
  env: Record<string, string>;
  flags: string[];
}
/** Null when `pictor <args>` has every launcher setting it needs (or is not `serve`). */
export function missingLaunchSettings(
  args: readonly string[],
  env: Record<string, string | undefined>,
  execArgv: readonly string[],
): MissingLaunchSettings | null;
export function describeSettings(missing: MissingLaunchSettings): string;
