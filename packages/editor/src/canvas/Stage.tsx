import { useCallback, useEffect, useRef } from "react";
import { useEditor } from "../store/use-editor.ts";
import { FrameView, type PasteboardPress } from "./FrameView.tsx";
import { useFileDrop } from "./use-file-drop.ts";
import { useStageView } from "./use-stage-view.ts";

/** Distance from a point to a rectangle (0 inside). */
function distanceTo(rect: DOMRect, x: number, y: number): number {
  const dx = Math.max(rect.left - x, 0, x - rect.right);
  const dy = Math.max(rect.top - y, 0, y - rect.bottom);
  return Math.hypot(dx, dy);
}

/**
 * The centre of the editor: every frame side by side, zoomed and panned (use-stage-view.ts). A press
 * on the pasteboard (the stage around the frames) selects no layer and starts a marquee in the
 * nearest frame, so a marquee can begin outside a frame. Image and font files dropped on it (or
 * pasted) are uploaded and used (use-file-drop.ts).
 */
export function Stage() {
  const editor = useEditor();
  const frames = useEditor((s) => s.doc.frames);
  const zoom = useEditor((s) => s.zoom);
  const wrap = useRef<HTMLElement>(null);
  const view = useStageView(wrap, { zoom, setZoom: (z) => editor.setZoom(z) });
  const files = useFileDrop(editor);
  const latestView = useRef(view);
  latestView.current = view;

  const pasteboard = useRef(new Map<number, PasteboardPress>());
  const onPasteboard = useCallback((index: number, press: PasteboardPress | null) => {
    if (press) pasteboard.current.set(index, press);
    else pasteboard.current.delete(index);
  }, []);

  useEffect(() => {
    editor.attachStage({ zoomTo: (...args) => latestView.current.zoomTo(...args) });
    return () => editor.attachStage(null);
  }, [editor]);

  return (
    <main
      ref={wrap}
      className={`stage-wrap ${view.panning ? "panning" : ""}`}
      onDragOver={files.onDragOver}
      onDrop={files.onDrop}
      onPointerDown={(e) => {
        const target = e.target as HTMLElement;
        // The pasteboard: the stage itself, its padding, the space beside a frame's label.
        if (!target.matches(".stage-wrap, .stage, .frame-block")) return;
        const overlays = [...(wrap.current?.querySelectorAll(".frame-overlay") ?? [])];
        let nearest = -1;
        let best = Number.POSITIVE_INFINITY;
        overlays.forEach((el, i) => {
          const d = distanceTo(el.getBoundingClientRect(), e.clientX, e.clientY);
          if (d < best) [nearest, best] = [i, d];
        });
        const press = pasteboard.current.get(nearest);
        if (press) return press(e);
        const { selection } = editor.getState();
        if (selection) editor.select({ frame: selection.frame, layer: null });
      }}
    >
      <div className="stage">
        {frames.map((f, i) => (
          <FrameView key={f.name} frameIndex={i} frame={f} onPasteboard={onPasteboard} />
        ))}
      </div>
      {files.status && (
        <div className="drop-status" role="status" data-testid="drop-status">
          {files.status}
          <button type="button" className="icon-btn" aria-label="Dismiss" onClick={files.dismiss}>
            ✕
          </button>
        </div>
      )}
    </main>
  );
}
