import { memo, useMemo, useRef, useState } from "react";
import type { FrameT, Layer } from "../engine/engine-types.ts";
import { layerIcon, layerLabel } from "../layer-forms/registry.ts";
import { childLayers } from "../model/layer-tree.ts";
import { type Selection, selectedIds, toggleInSelection } from "../model/selection.ts";

interface Props {
  frames: readonly FrameT[];
  selection: Selection | null;
  locked: ReadonlySet<string>;
  onSelect(selection: Selection): void;
  /** Moves a layer to a position of its own parent list (the frame's, or its group's). */
  onReorder(frameIndex: number, id: string, to: number): void;
  onToggleVisible(frameIndex: number, id: string): void;
  onToggleLock(id: string): void;
  /** A new name for a layer (undefined: back to showing its id). */
  onRename(frameIndex: number, id: string, name: string | undefined): void;
}

/** Where a row sits: its frame, its parent group (null: the frame) and its index there. */
interface Place {
  frame: number;
  parent: string | null;
  index: number;
}

interface RowActions {
  pick(e: React.MouseEvent, frame: number, id: string): void;
  dragStart(place: Place, id: string): void;
  canDrop(place: Place): boolean;
  drop(place: Place, id: string): void;
  toggleLock(id: string): void;
  toggleVisible(frame: number, id: string): void;
  rename(frame: number, id: string, name: string | undefined): void;
}

/**
 * Frames and their layers, topmost first; Shift/Ctrl-click adds to the selection; drag a row to
 * reorder within its frame or group (drop on another row takes its place); double-click a name (or
 * F2 on a focused row) to rename the layer; a right-click selects the row for the context menu. Rows are memoised on their
 * layer, so an edit re-renders the edited layer's row only.
 */
export function LayersPanel(props: Props) {
  const { frames, selection, locked } = props;
  const dragging = useRef<{ frame: number; parent: string | null; id: string } | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const chosen = new Set(selectedIds(selection));

  // One object for the panel's life: rows read the latest props through the ref.
  const actions = useMemo<RowActions>(
    () => ({
      pick(e, frame, id) {
        const p = latest.current;
        p.onSelect(
          e.shiftKey || e.ctrlKey || e.metaKey
            ? toggleInSelection(p.selection, frame, id)
            : { frame, layer: id },
        );
      },
      dragStart(place, id) {
        dragging.current = { frame: place.frame, parent: place.parent, id };
      },
      canDrop: (place) => dragging.current?.frame === place.frame && dragging.current.parent === place.parent,
      drop(place, id) {
        const d = dragging.current;
        if (d && d.frame === place.frame && d.parent === place.parent && d.id !== id)
          latest.current.onReorder(place.frame, d.id, place.index);
        dragging.current = null;
      },
      toggleLock: (id) => latest.current.onToggleLock(id),
      toggleVisible: (frame, id) => latest.current.onToggleVisible(frame, id),
      rename: (frame, id, name) => latest.current.onRename(frame, id, name),
    }),
    [],
  );

  const rows = (
    frameIndex: number,
    layers: readonly Layer[],
    depth: number,
    parent: string | null,
  ): React.ReactNode[] =>
    layers
      .map((l, index) => ({ l, index }))
      .reverse()
      .flatMap(({ l, index }) => [
        <LayerRow
          key={l.id}
          layer={l}
          frame={frameIndex}
          parent={parent}
          index={index}
          depth={depth}
          selected={selection?.frame === frameIndex && chosen.has(l.id)}
          locked={locked.has(l.id)}
          actions={actions}
        />,
        ...rows(frameIndex, childLayers(l) ?? [], depth + 1, l.id),
      ]);

  return (
    <section className="layers" aria-label="Frames and layers">
      {frames.map((f, fi) => (
        <div key={f.name} className="layer-frame">
          <button
            type="button"
            className={`layer-frame-head ${selection?.frame === fi && selection.layer === null ? "selected" : ""}`}
            aria-pressed={selection?.frame === fi && selection.layer === null}
            onClick={() => props.onSelect({ frame: fi, layer: null })}
          >
            <span>▭ {f.name}</span>
            <span className="muted small">
              {f.width}×{f.height}
            </span>
          </button>
          {f.layers.length === 0 ? (
            <div className="muted small empty">No layers yet</div>
          ) : (
            rows(fi, f.layers as Layer[], 0, null)
          )}
        </div>
      ))}
    </section>
  );
}

interface RowProps {
  layer: Layer;
  frame: number;
  parent: string | null;
  index: number;
  depth: number;
  selected: boolean;
  locked: boolean;
  actions: RowActions;
}

const LayerRow = memo(function LayerRow({
  layer: l,
  frame,
  parent,
  index,
  depth,
  selected,
  locked,
  actions,
}: RowProps) {
  const place = { frame, parent, index };
  const name = l.name ?? l.id;
  const [renaming, setRenaming] = useState(false);
  /** The rename runs (Enter and the blur that follows commit it once). */
  const open = useRef(false);
  const select = useRef<HTMLButtonElement>(null);

  function rename() {
    open.current = true;
    setRenaming(true);
  }

  function finish(value: string | null) {
    if (!open.current) return;
    open.current = false;
    setRenaming(false);
    if (value !== null) {
      const trimmed = value.trim();
      const next = trimmed === "" || trimmed === l.id ? undefined : trimmed;
      if (next !== l.name) actions.rename(frame, l.id, next);
    }
    requestAnimationFrame(() => select.current?.focus());
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: drag and drop is the pointer path; the keyboard reorders with Ctrl+[ and Ctrl+]
    <div
      className={`layer-row ${selected ? "selected" : ""} ${l.visible === false ? "hidden" : ""}`}
      style={{ paddingLeft: 8 + depth * 14 }}
      data-testid="layer-row"
      data-layer={l.id}
      draggable={!renaming}
      onContextMenu={(e) => {
        if (!selected) actions.pick(e, frame, l.id);
      }}
      onDragStart={(e) => {
        e.stopPropagation();
        actions.dragStart(place, l.id);
      }}
      onDragOver={(e) => actions.canDrop(place) && e.preventDefault()}
      onDrop={(e) => {
        e.stopPropagation();
        actions.drop(place, l.id);
      }}
    >
      {renaming ? (
        <span className="layer-select renaming">
          <span className="layer-icon" title={layerLabel(l)}>
            {layerIcon(l)}
          </span>
          <input
            className="layer-rename"
            data-testid="layer-rename"
            aria-label={`Name of ${name}`}
            defaultValue={l.name ?? ""}
            placeholder={l.id}
            // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
            autoFocus
            onFocus={(e) => e.currentTarget.select()}
            onKeyDown={(e) => {
              e.stopPropagation();
              if (e.key === "Enter") finish(e.currentTarget.value);
              else if (e.key === "Escape") finish(null);
            }}
            onBlur={(e) => finish(e.currentTarget.value)}
          />
        </span>
      ) : (
        <button
          ref={select}
          type="button"
          className="layer-select"
          aria-pressed={selected}
          title="Select (Shift/Ctrl: add to the selection); double-click or F2 to rename"
          onClick={(e) => actions.pick(e, frame, l.id)}
          onDoubleClick={rename}
          onKeyDown={(e) => {
            if (e.key === "F2") {
              e.preventDefault();
              rename();
            }
          }}
        >
          <span className="layer-icon" title={layerLabel(l)} data-testid="layer-icon">
            {layerIcon(l)}
          </span>
          <span className="layer-name">{name}</span>
          {l.bind && Object.keys(l.bind).length > 0 && (
            <span className="bound" title="Bound to a slot">
              ⚯
            </span>
          )}
        </button>
      )}
      <button
        type="button"
        className={`icon-btn lock ${locked ? "on" : ""}`}
        title={locked ? "Unlock" : "Lock"}
        aria-label={`${locked ? "Unlock" : "Lock"} ${name}`}
        aria-pressed={locked}
        data-testid="layer-lock"
        onClick={() => actions.toggleLock(l.id)}
      >
        <LockIcon closed={locked} />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={l.visible === false ? "Show" : "Hide"}
        aria-label={`${l.visible === false ? "Show" : "Hide"} ${name}`}
        onClick={() => actions.toggleVisible(frame, l.id)}
      >
        {l.visible === false ? "◌" : "◉"}
      </button>
    </div>
  );
});

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
