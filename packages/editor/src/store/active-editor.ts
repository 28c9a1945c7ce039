import type { EditorStore } from "./editor-store.ts";

/**
 * The editor open in the page, if any: what the test entry's bridge (testing/test-hook.ts) reads.
 * Nothing in the production bundle reads it.
 */
let active: EditorStore | null = null;

export function setActiveEditor(editor: EditorStore | null): void {
  active = editor;
}

export function activeEditor(): EditorStore | null {
  return active;
}
