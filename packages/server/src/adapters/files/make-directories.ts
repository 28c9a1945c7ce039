import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * `mkdir -p`, one level at a time from the nearest directory that exists. Node's own recursive
 * mkdir never returns for a path under /proc (each mkdir there fails with ENOENT, and it retries);
 * this fails with that ENOENT instead.
 */
export function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      statSync(d);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(d) === d) throw error;
      missing.unshift(d);
    }
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
