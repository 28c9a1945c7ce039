import { faultCauses } from "../fault-causes.ts";

/**
 * The database or the object store failed while a render's inputs (its images, its account's fonts)
 * were being looked up or read: the deployment's fault, not the caller's. Wrapped around the store's
 * error (kept as `cause`) so the renderer's "image could not be loaded" does not hide it, and the job
 * is run again instead of failing as `image_fetch_failed`.
 */
export class InputStoreFault extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what}: ${messageOf(cause)}`, { cause });
    this.name = "InputStoreFault";
  }
}

/** Runs a store read; any error it throws becomes an InputStoreFault naming `what`. */
export async function fromInputStore<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new InputStoreFault(what, error);
  }
}

/** The InputStoreFault in `error` or the errors it wraps, if any. */
export function inputStoreFaultIn(error: unknown): InputStoreFault | null {
  for (const fault of faultCauses(error)) if (fault instanceof InputStoreFault) return fault;
  return null;
}

function messageOf(error: unknown): string {
  const fault = error as { name?: unknown; message?: unknown; code?: unknown };
  const name = typeof fault?.name === "string" && fault.name !== "Error" ? `${fault.name}: ` : "";
  const code = typeof fault?.code === "string" ? ` (${fault.code})` : "";
  return `${name}${String(fault?.message ?? error)}${code}`;
}
