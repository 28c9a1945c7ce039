import { useState } from "react";
import type { FrameT, Layer } from "../engine/engine-types.ts";
import { layerIcon, layerLabel } from "./layer-forms/registry.ts";
import { childLayers } from "./layer-tree.ts";
import { type Selection, selectedIds, toggleInSelection } from "./selection.ts";

interface Props {
  frames: readonly FrameT[];
  selection: Selection | null;
  locked: ReadonlySet<string>;
  onSelect(selection: Selection): void;
  /** Moves a layer to a position of its own parent list (the frame's, or its group's). */
  onReorder(frameIndex: number, id: string, to: number): void;
  onToggleVisible(frameIndex: number, id: string): void;
  onToggleLock(id: string): void;
}

/**
 * Frames and their layers, topmost first; Shift/Ctrl-click adds to the selection; drag a row to
 * reorder within its frame or group (drop on another row takes its place).
 */
export function LayersPanel({
  frames,
  selection,
  locked,
  onSelect,
  onReorder,
  onToggleVisible,
  onToggleLock,
}: Props) {
  const [dragging, setDragging] = useState<{ frame: number; id: string; parent: readonly Layer[] } | null>(
    null,
  );
  const chosen = new Set(selectedIds(selection));

  const pick = (e: React.MouseEvent | React.KeyboardEvent, frameIndex: number, id: string) =>
    onSelect(
      e.shiftKey || e.ctrlKey || e.metaKey
        ? toggleInSelection(selection, frameIndex, id)
        : { frame: frameIndex, layer: id },
    );

  const rows = (frameIndex: number, layers: readonly Layer[], depth: number): React.ReactNode =>
    layers
      .map((l, i) => ({ l, i }))
      .reverse()
      .map(({ l, i }) => (
        <div key={l.id}>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: drag and drop is the pointer path; the keyboard reorders with Ctrl+[ and Ctrl+] */}
          <div
            className={`layer-row ${selection?.frame === frameIndex && chosen.has(l.id) ? "selected" : ""} ${l.visible === false ? "hidden" : ""}`}
            style={{ paddingLeft: 8 + depth * 14 }}
            data-testid="layer-row"
            data-layer={l.id}
            draggable
            onDragStart={(e) => {
              e.stopPropagation();
              setDragging({ frame: frameIndex, id: l.id, parent: layers });
            }}
            onDragOver={(e) =>
              dragging?.frame === frameIndex && dragging.parent === layers && e.preventDefault()
            }
            onDrop={(e) => {
              e.stopPropagation();
              if (
                dragging &&
                dragging.frame === frameIndex &&
                dragging.parent === layers &&
                dragging.id !== l.id
              )
                onReorder(frameIndex, dragging.id, i);
              setDragging(null);
            }}
          >
            <button
              type="button"
              className="layer-select"
              aria-pressed={selection?.frame === frameIndex && chosen.has(l.id)}
              title="Select (Shift/Ctrl: add to the selection)"
              onClick={(e) => pick(e, frameIndex, l.id)}
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
            </button>
            <button
              type="button"
              className={`icon-btn lock ${locked.has(l.id) ? "on" : ""}`}
              title={locked.has(l.id) ? "Unlock" : "Lock"}
              aria-label={`${locked.has(l.id) ? "Unlock" : "Lock"} ${l.name ?? l.id}`}
              aria-pressed={locked.has(l.id)}
              data-testid="layer-lock"
              onClick={(e) => {
                e.stopPropagation();
                onToggleLock(l.id);
              }}
            >
              <LockIcon closed={locked.has(l.id)} />
            </button>
            <button
              type="button"
              className="icon-btn"
              title={l.visible === false ? "Show" : "Hide"}
              aria-label={`${l.visible === false ? "Show" : "Hide"} ${l.name ?? l.id}`}
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
    <section className="layers" aria-label="Frames and layers">
      {frames.map((f, fi) => (
        <div key={f.name} className="layer-frame">
          <button
            type="button"
            className={`layer-frame-head ${selection?.frame === fi && selection.layer === null ? "selected" : ""}`}
            aria-pressed={selection?.frame === fi && selection.layer === null}
            onClick={() => onSelect({ frame: fi, layer: null })}
          >
            <span>▭ {f.name}</span>
            <span className="muted small">
              {f.width}×{f.height}
            </span>
          </button>
          {f.layers.length === 0 ? (
            <div className="muted small empty">No layers yet</div>
          ) : (
            rows(fi, f.layers as Layer[], 0)
          )}
        </div>
      ))}
    </section>
  );
}

function LockIcon({ closed }: { closed: boolean }) {
  return (
    <svg width="11" height="12" viewBox="0 0 11 12" aria-hidden="true">
      <rect x="1" y="5" width="9" height="6.5" rx="1" fill="currentColor" />
      <path
        d={closed ? "M3 5V3.5a2.5 2.5 0 0 1 5 0V5" : "M3 5V3.5a2.5 2.5 0 0 1 5 0"}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        transform={closed ? undefined : "translate(-2.5 -1) rotate(-20 5.5 4)"}
      />
    </svg>
  );
}
