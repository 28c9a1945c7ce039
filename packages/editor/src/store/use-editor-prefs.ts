import { useEffect, useState } from "react";
import type { FrameGuides } from "../canvas/use-frame-gestures.ts";

/**
 * What the editor remembers per template that is not part of the document (the API never sees
 * it): locked layers, ruler guides per frame, whether the rulers show. Kept in localStorage.
 */
interface Prefs {
  locked: string[];
  guides: Record<string, FrameGuides>;
  rulers: boolean;
}

const EMPTY: Prefs = { locked: [], guides: {}, rulers: true };

function load(templateId: string): Prefs {
  try {
    const raw = localStorage.getItem(`pictor.editor.${templateId}`);
    return raw ? { ...EMPTY, ...(JSON.parse(raw) as Partial<Prefs>) } : EMPTY;
  } catch {
    return EMPTY;
  }
}

export function useEditorPrefs(templateId: string) {
  const [prefs, setPrefs] = useState<Prefs>(() => load(templateId));
  useEffect(() => setPrefs(load(templateId)), [templateId]);
  useEffect(() => {
    try {
      localStorage.setItem(`pictor.editor.${templateId}`, JSON.stringify(prefs));
    } catch {
      // Storage refused: the preferences last for this page only.
    }
  }, [prefs, templateId]);
  const locked = new Set(prefs.locked);
  return {
    locked,
    toggleLocked(ids: readonly string[]) {
      setPrefs((p) => {
        const set = new Set(p.locked);
        const lock = ids.some((id) => !set.has(id));
        for (const id of ids) {
          if (lock) set.add(id);
          else set.delete(id);
        }
        return { ...p, locked: [...set] };
      });
    },
    guidesOf: (frame: string): FrameGuides => prefs.guides[frame] ?? { x: [], y: [] },
    setGuides(frame: string, guides: FrameGuides) {
      setPrefs((p) => ({ ...p, guides: { ...p.guides, [frame]: guides } }));
    },
    rulers: prefs.rulers,
    setRulers: (rulers: boolean) => setPrefs((p) => ({ ...p, rulers })),
  };
}
