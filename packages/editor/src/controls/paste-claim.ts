/**
 * Ctrl+V serves two pastes: files on the clipboard (an image or font, canvas/use-file-drop.ts, from
 * the browser's paste event) and the layer clipboard (use-shortcuts.ts, from the key). The paste
 * event comes as the key's default action, before a task queued by the key's handler runs, so the
 * key's handler waits a task and pastes layers only when no file paste claimed this Ctrl+V.
 */
let claimed = false;

export function claimPaste(): void {
  claimed = true;
}

/** Whether a file paste took the last Ctrl+V (and forgets it). */
export function takePasteClaim(): boolean {
  const was = claimed;
  claimed = false;
  return was;
}
