import { useState } from "react";
import type { FrameT, Layer } from "../engine/engine-types.ts";
import { layerIcon, layerLabel } from "./layer-forms/registry.ts";
import { childLayers } from "./layer-tree.ts";
import type { Selection } from "./selection.ts";

interface Props {
  frames: readonly FrameT[];
  selection: Selection | null;
  onSelect(selection: Selection): void;
  onReorder(frameIndex: number, id: string, to: number): void;
  onToggleVisible(frameIndex: number, id: string): void;
}

/** Frames and their layers, topmost first; drag a row to reorder (drop on another row takes its place). */
export function LayersPanel({ frames, selection, onSelect, onReorder, onToggleVisible }: Props) {
  const [dragging, setDragging] = useState<{ frame: number; id: string } | null>(null);

  const rows = (frameIndex: number, layers: readonly Layer[], depth: number) =>
    layers
      .map((l, i) => ({ l, i }))
      .reverse()
      .map(({ l, i }) => (
        <div key={l.id}>
          <div
            className={`layer-row ${selection?.frame === frameIndex && selection.layer === l.id ? "selected" : ""} ${l.visible === false ? "hidden" : ""}`}
            style={{ paddingLeft: 8 + depth * 14 }}
            data-testid="layer-row"
            data-layer={l.id}
            draggable={depth === 0}
            onDragStart={() => setDragging({ frame: frameIndex, id: l.id })}
            onDragOver={(e) => depth === 0 && dragging?.frame === frameIndex && e.preventDefault()}
            onDrop={() => {
              if (dragging && dragging.frame === frameIndex && dragging.id !== l.id)
                onReorder(frameIndex, dragging.id, i);
              setDragging(null);
            }}
            role="option"
            aria-selected={selection?.frame === frameIndex && selection.layer === l.id}
            tabIndex={0}
            onClick={() => onSelect({ frame: frameIndex, layer: l.id })}
            onKeyDown={(e) => e.key === "Enter" && onSelect({ frame: frameIndex, layer: l.id })}
          >
            <span className="layer-icon" title={layerLabel(l)} data-testid="layer-icon">
              {layerIcon(l)}
            </span>
            <span className="layer-name">{l.name ?? l.id}</span>
            {l.bind && Object.keys(l.bind).length > 0 && (
              <span className="bound" title="Bound to a slot">
                ⚯
              </span>
            )}
            <button
              type="button"
              className="icon-btn"
              title={l.visible === false ? "Show" : "Hide"}
              onClick={(e) => {
                e.stopPropagation();
                onToggleVisible(frameIndex, l.id);
              }}
            >
              {l.visible === false ? "◌" : "◉"}
            </button>
          </div>
          {rows(frameIndex, childLayers(l) ?? [], depth + 1)}
        </div>
      ));

  return (
    <div className="layers" role="listbox" aria-label="Frames and layers">
      {frames.map((f, fi) => (
        <div key={f.name} className="layer-frame">
          <div
            className={`layer-frame-head ${selection?.frame === fi && selection.layer === null ? "selected" : ""}`}
            role="option"
            aria-selected={selection?.frame === fi && selection.layer === null}
            tabIndex={0}
            onClick={() => onSelect({ frame: fi, layer: null })}
            onKeyDown={(e) => e.key === "Enter" && onSelect({ frame: fi, layer: null })}
          >
            <span>▭ {f.name}</span>
            <span className="muted small">
              {f.width}×{f.height}
            </span>
          </div>
          {f.layers.length === 0 ? (
            <div className="muted small empty">No layers yet</div>
          ) : (
            rows(fi, f.layers as Layer[], 0)
          )}
        </div>
      ))}
    </div>
  );
}
