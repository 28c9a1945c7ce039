import { useEffect, useState } from "react";
import type { RenderWarning, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import type { EditorEngine } from "../engine/load-engine.ts";

export interface FrameWarnings {
  frame: string;
  warnings: RenderWarning[];
  imageErrors: string[];
  error: string | null;
}

/** After the last change, before the frames are drawn again for their warnings. */
const SETTLE_MS = 300;

/**
 * The warnings an API render at `scale` would report for each frame with these values: the frames
 * are drawn again at that scale, apart from the canvas (which draws at the zoom's scale, so its own
 * warnings, e.g. `image_upscaled` at 200 %, are not the API's). Null until the first pass is done.
 * Not while a pointer gesture runs (`inGesture`): its document changes with every move, and a pause of
 * the pointer would spend a whole drawing per frame on warnings of a position about to change (the
 * next moves would wait for it); the release draws them.
 */
export function usePreviewWarnings(
  engine: EditorEngine | null,
  doc: TemplateDocumentT,
  values: SlotValues,
  scale: number,
  inGesture: boolean,
): FrameWarnings[] | null {
  const [result, setResult] = useState<FrameWarnings[] | null>(null);
  useEffect(() => {
    if (!engine || inGesture) return;
    let live = true;
    const timer = setTimeout(async () => {
      const out: FrameWarnings[] = [];
      for (const f of doc.frames) {
        try {
          const r = await engine.render(doc, { frame: f.name, values, scale });
          out.push({ frame: f.name, warnings: r.warnings, imageErrors: r.imageErrors, error: null });
        } catch (err) {
          out.push({
            frame: f.name,
            warnings: [],
            imageErrors: [],
            error: err instanceof Error ? err.message : String(err),
          });
        }
        if (!live) return;
      }
      setResult(out);
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [engine, doc, values, scale, inGesture]);
  return result;
}
