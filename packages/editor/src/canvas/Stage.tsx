import { useEffect, useRef } from "react";
import { useEditor } from "../store/use-editor.ts";
import { FrameView } from "./FrameView.tsx";
import { useStageView } from "./use-stage-view.ts";

/**
 * The centre of the editor: every frame side by side, zoomed and panned (use-stage-view.ts). A press
 * on the stage around the frames selects no layer.
 */
export function Stage() {
  const editor = useEditor();
  const frames = useEditor((s) => s.doc.frames);
  const zoom = useEditor((s) => s.zoom);
  const wrap = useRef<HTMLElement>(null);
  const view = useStageView(wrap, { zoom, setZoom: (z) => editor.setZoom(z) });
  const latestView = useRef(view);
  latestView.current = view;

  useEffect(() => {
    editor.attachStage({ zoomTo: (...args) => latestView.current.zoomTo(...args) });
    return () => editor.attachStage(null);
  }, [editor]);

  return (
    <main
      ref={wrap}
      className={`stage-wrap ${view.panning ? "panning" : ""}`}
      onPointerDown={(e) => {
        if (e.target !== e.currentTarget) return;
        const { selection } = editor.getState();
        if (selection) editor.select({ frame: selection.frame, layer: null });
      }}
    >
      <div className="stage">
        {frames.map((f, i) => (
          <FrameView key={f.name} frameIndex={i} frame={f} />
        ))}
      </div>
    </main>
  );
}
