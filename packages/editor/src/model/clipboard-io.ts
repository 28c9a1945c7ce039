import { type ClipboardPayload, parsePayload, serialisePayload } from "./clipboard.ts";

/**
 * The clipboard in the browser: the system clipboard where the page may use it, and always a copy
 * in localStorage, so copy and paste work between frames, templates and tabs of this origin even
 * where the system clipboard is refused (no permission, headless browsers, plain http).
 */
const KEY = "pictor.clipboard";

export async function writeClipboard(payload: ClipboardPayload): Promise<void> {
  const text = serialisePayload(payload);
  try {
    localStorage.setItem(KEY, text);
  } catch {
    // Storage full or disabled: the system clipboard may still take it.
  }
  try {
    await withTimeout(navigator.clipboard?.writeText(text), 500);
  } catch {
    // Refused: the in-page copy is enough.
  }
}

export async function readClipboard(): Promise<ClipboardPayload | null> {
  let system: string | null = null;
  try {
    system = (await withTimeout(navigator.clipboard?.readText(), 500)) ?? null;
  } catch {
    system = null;
  }
  const fromSystem = parsePayload(system);
  if (fromSystem) return fromSystem;
  try {
    return parsePayload(localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

function withTimeout<T>(promise: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  if (!promise) return Promise.resolve(undefined);
  return Promise.race([
    promise,
    new Promise<undefined>((_, reject) => setTimeout(() => reject(new Error("clipboard timeout")), ms)),
  ]);
}
