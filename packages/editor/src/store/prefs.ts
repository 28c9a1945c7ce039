import type { FrameGuides } from "../model/geometry.ts";

/**
 * What the editor remembers per template that is not part of the document (the API never sees
 * it): locked layers, ruler guides per frame, whether the rulers show. Kept in localStorage.
 */
export interface Prefs {
  locked: ReadonlySet<string>;
  guides: Readonly<Record<string, FrameGuides>>;
  rulers: boolean;
}

interface Stored {
  locked: string[];
  guides: Record<string, FrameGuides>;
  rulers: boolean;
}

const EMPTY: Stored = { locked: [], guides: {}, rulers: true };
const NO_GUIDES: FrameGuides = { x: [], y: [] };

const keyOf = (templateId: string) => `pictor.editor.${templateId}`;

export function loadPrefs(templateId: string): Prefs {
  let stored = EMPTY;
  try {
    const raw = localStorage.getItem(keyOf(templateId));
    if (raw) stored = { ...EMPTY, ...(JSON.parse(raw) as Partial<Stored>) };
  } catch {
    // No storage (or a broken entry): the defaults.
  }
  return { locked: new Set(stored.locked), guides: stored.guides, rulers: stored.rulers };
}

export function savePrefs(templateId: string, prefs: Prefs): void {
  const stored: Stored = { locked: [...prefs.locked], guides: { ...prefs.guides }, rulers: prefs.rulers };
  try {
    localStorage.setItem(keyOf(templateId), JSON.stringify(stored));
  } catch {
    // Storage refused: the preferences last for this page only.
  }
}

export function guidesOf(prefs: Prefs, frameName: string): FrameGuides {
  return prefs.guides[frameName] ?? NO_GUIDES;
}

/** Locks the layers when any of them is unlocked, else unlocks them all. */
export function toggledLocks(locked: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const next = new Set(locked);
  const lock = ids.some((id) => !next.has(id));
  for (const id of ids) {
    if (lock) next.add(id);
    else next.delete(id);
  }
  return next;
}
