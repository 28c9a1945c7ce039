import { ArrangeBar } from "../controls/ArrangeBar.tsx";
import { FramePresets } from "../controls/FramePresets.tsx";
import { Toolbar } from "../controls/Toolbar.tsx";
import type { Layer } from "../engine/engine-types.ts";
import { placeInParent } from "../model/arrange.ts";
import { findLayer, updateLayer } from "../model/doc-ops.ts";
import { childLayers } from "../model/layer-tree.ts";
import { selectedIds } from "../model/selection.ts";
import { useEditor } from "../store/use-editor.ts";
import { LayersPanel } from "./LayersPanel.tsx";

/** Left of the canvas: the tools, the frames and layers tree, and the arrange bar of the selection. */
export function LeftPanel() {
  const editor = useEditor();
  const frames = useEditor((s) => s.doc.frames);
  const selection = useEditor((s) => s.selection);
  const locked = useEditor((s) => s.prefs.locked);
  const toFrame = useEditor((s) => s.toFrame);
  const resizeNotes = useEditor((s) => s.resizeNotes);
  const ids = selectedIds(selection);
  const frame = frames[Math.max(0, Math.min(selection?.frame ?? 0, frames.length - 1))];
  const layerOf = (id: string) => (frame ? findLayer(frame.layers as Layer[], id) : null);
  return (
    <aside className="left" aria-label="Tools and layers">
      <h2 className="sr-only">Tools and layers</h2>
      <Toolbar />
      <div className="panel-title">
        <span>Frames &amp; layers</span>
        <FramePresets frames={frames} onAdd={(sizes, from) => editor.addFrames(sizes, from)} />
      </div>
      {resizeNotes.length > 0 && (
        <div className="resize-notes" role="status" data-testid="resize-notes">
          <p>Check after resizing:</p>
          <ul>
            {resizeNotes.map((n) => (
              <li key={`${n.layer}:${n.message}`}>
                {n.layer}: {n.message}
              </li>
            ))}
          </ul>
          <button type="button" className="btn small" onClick={() => editor.dismissResizeNotes()}>
            OK
          </button>
        </div>
      )}
      <LayersPanel
        frames={frames}
        selection={selection}
        locked={locked}
        onSelect={(s) => {
          editor.select(s);
          editor.setTab("design");
        }}
        onReorder={(fi, id, to) => editor.setDocument(placeInParent(editor.getState().doc, fi, id, to))}
        onToggleVisible={(fi, id) =>
          editor.setDocument(
            updateLayer(editor.getState().doc, fi, id, (l) => ({ ...l, visible: l.visible === false })),
          )
        }
        onToggleLock={(id) => editor.toggleLocked([id])}
        onRename={(fi, id, name) =>
          editor.setDocument(
            updateLayer(editor.getState().doc, fi, id, (l) => {
              const next = { ...l } as Layer;
              if (name === undefined) delete next.name;
              else next.name = name;
              return next;
            }),
          )
        }
      />
      {ids.length > 0 && (
        <ArrangeBar
          actions={editor.arrange}
          count={ids.length}
          isGroup={ids.some((id) => {
            const l = layerOf(id);
            return Boolean(l && childLayers(l));
          })}
          locked={ids.every((id) => locked.has(id))}
          hidden={ids.every((id) => layerOf(id)?.visible === false)}
          toFrame={toFrame}
          onToFrame={(v) => editor.setToFrame(v)}
        />
      )}
    </aside>
  );
}
