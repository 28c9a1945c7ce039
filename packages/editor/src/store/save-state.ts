import { ApiFailure } from "../api/client.ts";

/** The draft's autosave, as the bar shows it. */
export type SaveState = "saved" | "dirty" | "saving" | { error: string };

/** Why a save failed, in words: the API's validation errors by path, or its message. */
export function saveFailure(err: unknown): string {
  if (!(err instanceof ApiFailure)) return String(err);
  const errors = (err.body as { error?: { errors?: { path: string; message: string }[] } })?.error?.errors;
  return (errors ?? []).map((e) => `${e.path}: ${e.message}`).join("; ") || err.message;
}

/** The bar's words for a save state. */
export function saveLabel(save: SaveState): string {
  if (save === "saved") return "All changes saved";
  if (save === "saving") return "Saving…";
  if (save === "dirty") return "Unsaved";
  return `Not saved: ${save.error}`;
}
