import { constants } from "node:fs";
import { access } from "node:fs/promises";
import type { ReadinessCheck } from "../../ports/readiness.ts";

/** Blobs in a directory (the embedded default's, or one shared by every process): it can be written. */
export function directoryReadiness(root: string): ReadinessCheck {
  return {
    name: "object_store",
    async check() {
      await access(root, constants.R_OK | constants.W_OK);
    },
  };
}
