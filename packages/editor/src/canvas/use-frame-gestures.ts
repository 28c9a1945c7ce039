import { type RefObject, useRef, useState } from "react";
import type { FrameT, Layer } from "../engine/engine-types.ts";
import {
  type Extent,
  layersInMarquee,
  rotateBoxes,
  scaleBoxes,
  selectionBounds,
  unionExtent,
} from "../model/arrange.ts";
import {
  type Box,
  extent,
  type FrameGuides,
  type Guide,
  hitBox,
  resizeBox,
  rotationTo,
  snapMove,
  snapResize,
} from "../model/geometry.ts";
import {
  absoluteBox,
  layerBox,
  parentOf,
  parentRotation,
  type Selection,
  selectedIds,
  selectLayers,
  toggleInSelection,
  toParentAxes,
} from "../model/selection.ts";
import type { Tool } from "../store/editor-store.ts";

type Starts = Map<string, Box>;

type Drag =
  | { kind: "move"; starts: Starts; px: number; py: number; moved: boolean }
  | { kind: "resize"; id: string; start: Box; px: number; py: number; sx: number; sy: number }
  | { kind: "resize-many"; starts: Starts; union: Box; px: number; py: number; sx: number; sy: number }
  | { kind: "rotate"; id: string; start: Box }
  | { kind: "rotate-many"; starts: Starts; union: Box }
  | { kind: "create"; tool: string; px: number; py: number; x: number; y: number }
  | { kind: "marquee"; px: number; py: number; base: string[] };

export interface GestureProps {
  frameIndex: number;
  frame: FrameT;
  zoom: number;
  tool: Tool;
  selection: Selection | null;
  locked: ReadonlySet<string>;
  guides: FrameGuides;
  onSelect(selection: Selection): void;
  /**
   * A press that may become a move, resize or rotation of these layers (before the pointer has
   * moved far enough to tell): what the drag will draw can start now.
   */
  onGestureStart(ids: readonly string[]): void;
  /** Live boxes of a move, resize or rotation; `eventTimes`: of the pointer events they answer. */
  onPreviewBoxes(boxes: ReadonlyMap<string, Box>, eventTimes: readonly number[]): void;
  onCommit(): void;
  /** Drops the previews of a gesture the browser cancelled (back to the document before it). */
  onCancel(): void;
  /** A drag (or a click: box null) with a layer tool: `tool` is its id. */
  onCreate(
    frameIndex: number,
    tool: string,
    box: { x: number; y: number; width: number; height: number } | null,
  ): void;
}

const SNAP_SCREEN_PX = 6;
/** A box thinner than this on screen (a horizontal line's box has height 0) is hit as this thick. */
const HIT_MIN_SCREEN_PX = 8;

function hitTarget(box: Box, zoom: number): Box {
  const min = HIT_MIN_SCREEN_PX / zoom;
  const width = Math.max(box.width, min);
  const height = Math.max(box.height, min);
  return { ...box, x: box.x - (width - box.width) / 2, y: box.y - (height - box.height) / 2, width, height };
}

export function normalise(x1: number, y1: number, x2: number, y2: number) {
  return {
    x: Math.round(Math.min(x1, x2)),
    y: Math.round(Math.min(y1, y2)),
    width: Math.round(Math.abs(x2 - x1)),
    height: Math.round(Math.abs(y2 - y1)),
  };
}

/** What a gesture reads of a pointer event; kept from a move until the next animation frame applies it. */
interface PointerSample {
  clientX: number;
  clientY: number;
  altKey: boolean;
  shiftKey: boolean;
  /** The times of the events it answers (performance.now() clock): several when moves were coalesced. */
  times: readonly number[];
}

function sampleOf(e: React.PointerEvent, before?: PointerSample | null): PointerSample {
  const { clientX, clientY, altKey, shiftKey, timeStamp } = e;
  return { clientX, clientY, altKey, shiftKey, times: [...(before?.times ?? []), timeStamp] };
}

/** Ruler guides as zero-size extents, so the snapping of layers treats them as edges to meet. */
function guideTargets(guides: FrameGuides): Extent[] {
  return [
    ...guides.x.map((x) => ({ left: x, top: 0, width: 0, height: 0 })),
    ...guides.y.map((y) => ({ left: 0, top: y, width: 0, height: 0 })),
  ];
}

/**
 * Pointer gestures on one frame: select (click, Shift/Ctrl-click, marquee), move, resize and
 * rotate one layer or several, create a layer with a tool. Moves and resizes snap (Alt: not) to the
 * frame's edges and centre, the other layers and the ruler guides; inside a group, to the group's
 * edges and centre and the other children.
 *
 * The gesture lives in a ref, read and written synchronously by each pointer event (several can
 * arrive before React renders again). Moves are applied once per animation frame, the latest one (a
 * burst of moves between two frames costs one redraw, and a move that changes nothing none); the
 * release drops a pending move and applies its own position before committing: where the pointer is
 * let go is where the gesture ends, however the browser batched the moves. A
 * press inside a document selection would let the browser start a native drag of that selection
 * (pointercancel, then no more moves nor release: Chromium 150 did that after a drag over the
 * handles had selected them); the overlay cancels `dragstart` while a gesture runs, the stage is
 * `user-select: none`, and a pointercancel still ends the gesture, dropping its previews.
 */
export function useFrameGestures(overlay: RefObject<HTMLDivElement | null>, props: GestureProps) {
  const { frame, frameIndex, zoom, tool, selection, locked } = props;
  /**
   * The running gesture, its pointer, the last pointer state applied to it (client pixels and
   * modifiers), and a move waiting for the next animation frame (`frame`: its request, 0: none).
   */
  const gesture = useRef<{
    drag: Drag;
    pointerId: number;
    x: number;
    y: number;
    alt: boolean;
    shift: boolean;
    pending: PointerSample | null;
    frame: number;
  } | null>(null);
  const [snapGuides, setSnapGuides] = useState<Guide[]>([]);
  const [createBox, setCreateBox] = useState<ReturnType<typeof normalise> | null>(null);
  const [marquee, setMarquee] = useState<ReturnType<typeof normalise> | null>(null);
  const latest = useRef(props);
  latest.current = props;

  const ids = selection?.frame === frameIndex ? selectedIds(selection) : [];

  function framePoint(e: { clientX: number; clientY: number }): { x: number; y: number } {
    const rect = overlay.current?.getBoundingClientRect();
    return { x: (e.clientX - (rect?.left ?? 0)) / zoom, y: (e.clientY - (rect?.top ?? 0)) / zoom };
  }

  function topLayerAt(x: number, y: number): Layer | null {
    const layers = frame.layers as Layer[];
    for (let i = layers.length - 1; i >= 0; i--) {
      const l = layers[i] as Layer;
      if (l.visible === false || locked.has(l.id)) continue;
      if (hitBox(hitTarget(layerBox(l), zoom), x, y)) return l;
    }
    return null;
  }

  function startsOf(list: readonly string[]): Starts {
    const starts: Starts = new Map();
    for (const id of list) {
      const found = parentOf(frame, id)?.siblings.find((l) => l.id === id);
      if (found && !locked.has(id)) starts.set(id, layerBox(found));
    }
    return starts;
  }

  function begin(e: React.PointerEvent, drag: Drag) {
    if ("starts" in drag) props.onGestureStart([...drag.starts.keys()]);
    else if ("id" in drag) props.onGestureStart([drag.id]);
    gesture.current = {
      drag,
      pointerId: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      alt: e.altKey,
      shift: e.shiftKey,
      pending: null,
      frame: 0,
    };
  }

  /**
   * A right-click acts on what is under the pointer, as in every design tool: inside the selection
   * it keeps the selection; on another layer it selects that layer; on nothing, the frame. The
   * context menu (LayerContextMenu.tsx) then opens on that selection.
   */
  function onSecondaryDown(e: React.PointerEvent) {
    if (tool !== "select") return;
    const p = framePoint(e);
    const inside = ids.some((id) => {
      const b = absoluteBox(frame, id);
      return b !== null && hitBox(hitTarget(b, zoom), p.x, p.y);
    });
    if (inside) return;
    const hit = topLayerAt(p.x, p.y);
    props.onSelect({ frame: frameIndex, layer: hit?.id ?? null });
  }

  function onPointerDown(e: React.PointerEvent) {
    if (e.button === 2) return onSecondaryDown(e);
    if (e.button !== 0) return;
    const p = framePoint(e);
    overlay.current?.setPointerCapture(e.pointerId);
    if (tool !== "select") {
      begin(e, { kind: "create", tool, px: p.x, py: p.y, x: p.x, y: p.y });
      return;
    }
    const hit = topLayerAt(p.x, p.y);
    const additive = e.shiftKey || e.ctrlKey || e.metaKey;
    if (additive) {
      if (hit) props.onSelect(toggleInSelection(selection, frameIndex, hit.id));
      else begin(e, { kind: "marquee", px: p.x, py: p.y, base: ids });
      return;
    }
    // Keep dragging the selection (a group child, or several layers) when the press lands inside it.
    const inside = ids.some((id) => {
      const b = absoluteBox(frame, id);
      return b !== null && hitBox(hitTarget(b, zoom), p.x, p.y);
    });
    if (inside) {
      begin(e, { kind: "move", starts: startsOf(ids), px: p.x, py: p.y, moved: false });
      return;
    }
    if (!hit) {
      props.onSelect({ frame: frameIndex, layer: null });
      begin(e, { kind: "marquee", px: p.x, py: p.y, base: [] });
      return;
    }
    props.onSelect({ frame: frameIndex, layer: hit.id });
    begin(e, { kind: "move", starts: startsOf([hit.id]), px: p.x, py: p.y, moved: false });
  }

  /**
   * A press on the pasteboard (the grey stage around the frames) nearest this frame: a marquee that
   * starts outside the frame, as in every design tool (Shift/Ctrl: added to the selection).
   */
  function onPasteboardDown(e: React.PointerEvent) {
    if (e.button !== 0 || tool !== "select") return;
    const p = framePoint(e);
    overlay.current?.setPointerCapture(e.pointerId);
    const additive = e.shiftKey || e.ctrlKey || e.metaKey;
    if (!additive) props.onSelect({ frame: frameIndex, layer: null });
    begin(e, { kind: "marquee", px: p.x, py: p.y, base: additive ? ids : [] });
  }

  function onHandleDown(e: React.PointerEvent, sx: number, sy: number) {
    e.stopPropagation();
    const p = framePoint(e);
    overlay.current?.setPointerCapture(e.pointerId);
    if (ids.length > 1) {
      const union = selectionBounds(frame, ids);
      if (union) begin(e, { kind: "resize-many", starts: startsOf(ids), union, px: p.x, py: p.y, sx, sy });
      return;
    }
    const id = ids[0];
    const start = id ? startsOf([id]).get(id) : undefined;
    if (id && start) begin(e, { kind: "resize", id, start, px: p.x, py: p.y, sx, sy });
  }

  function onRotateDown(e: React.PointerEvent) {
    e.stopPropagation();
    overlay.current?.setPointerCapture(e.pointerId);
    if (ids.length > 1) {
      const union = selectionBounds(frame, ids);
      if (union) begin(e, { kind: "rotate-many", starts: startsOf(ids), union });
      return;
    }
    const id = ids[0];
    const start = id ? startsOf([id]).get(id) : undefined;
    if (id && start) begin(e, { kind: "rotate", id, start });
  }

  /** Snapping context of a layer: targets in its parent's coordinates, and where guides go on the frame. */
  function snapContext(id: string, exclude: ReadonlySet<string>) {
    const parent = parentOf(frame, id);
    if (!parent?.group) {
      const others = (frame.layers as Layer[])
        .filter((l) => !exclude.has(l.id) && l.visible !== false)
        .map((l) => extent(layerBox(l)));
      return {
        bounds: frame,
        others: [...others, ...guideTargets(props.guides)],
        origin: { x: 0, y: 0 },
        drawGuides: true,
      };
    }
    const g = parent.group;
    const others = parent.siblings
      .filter((l) => !exclude.has(l.id) && l.visible !== false)
      .map((l) => extent(layerBox(l)));
    const abs = absoluteBox(frame, g.id);
    return {
      bounds: { width: g.width, height: g.height },
      others,
      origin: { x: abs?.x ?? 0, y: abs?.y ?? 0 },
      drawGuides: parentRotation(frame, id) === 0 && (abs?.rotation ?? 0) === 0,
    };
  }

  function showGuides(guides: Guide[], origin: { x: number; y: number }, draw: boolean) {
    setSnapGuides(
      draw ? guides.map((g) => ({ ...g, at: g.at + (g.axis === "x" ? origin.x : origin.y) })) : [],
    );
  }

  /** The gesture at the pointer's position: its preview (an undo step only at the release). */
  function update(drag: Drag, e: PointerSample) {
    const p = framePoint(e);
    const threshold = SNAP_SCREEN_PX / zoom;
    if (drag.kind === "create") {
      drag.x = p.x;
      drag.y = p.y;
      setCreateBox(normalise(drag.px, drag.py, p.x, p.y));
      return;
    }
    if (drag.kind === "marquee") {
      const box = normalise(drag.px, drag.py, p.x, p.y);
      setMarquee(box);
      const hits = layersInMarquee(
        frame.layers as Layer[],
        { left: box.x, top: box.y, width: box.width, height: box.height },
        (l) => l.visible === false || locked.has(l.id),
      );
      props.onSelect(selectLayers(frameIndex, [...drag.base, ...hits.filter((h) => !drag.base.includes(h))]));
      return;
    }
    if (drag.kind === "move") {
      const dx = p.x - drag.px;
      const dy = p.y - drag.py;
      if (!drag.moved && Math.hypot(dx, dy) * zoom < 2) return;
      drag.moved = true;
      const [firstId] = drag.starts.keys();
      if (!firstId) return;
      // All moved layers share the first one's parent axes (a multi-selection is top level).
      const d = toParentAxes(dx, dy, parentRotation(frame, firstId));
      const bounds = unionExtent(
        [...drag.starts.values()].map((b) => extent({ ...b, x: b.x + d.x, y: b.y + d.y })),
      );
      const ctx = snapContext(firstId, new Set(drag.starts.keys()));
      const snap =
        e.altKey || !bounds
          ? { dx: 0, dy: 0, guides: [] }
          : snapMove(bounds, ctx.bounds, ctx.others, threshold);
      showGuides(snap.guides, ctx.origin, ctx.drawGuides);
      const boxes = new Map<string, Box>();
      for (const [id, b] of drag.starts)
        boxes.set(id, { ...b, x: Math.round(b.x + d.x + snap.dx), y: Math.round(b.y + d.y + snap.dy) });
      props.onPreviewBoxes(boxes, e.times);
      return;
    }
    if (drag.kind === "resize") {
      const d = toParentAxes(p.x - drag.px, p.y - drag.py, parentRotation(frame, drag.id));
      const box = resizeBox(drag.start, drag.sx, drag.sy, d.x, d.y, e.shiftKey);
      if (e.altKey || e.shiftKey) {
        setSnapGuides([]);
        props.onPreviewBoxes(new Map([[drag.id, box]]), e.times);
        return;
      }
      const ctx = snapContext(drag.id, new Set([drag.id]));
      const snapped = snapResize(box, drag.sx, drag.sy, ctx.bounds, ctx.others, threshold);
      showGuides(snapped.guides, ctx.origin, ctx.drawGuides);
      props.onPreviewBoxes(new Map([[drag.id, snapped.box]]), e.times);
      return;
    }
    if (drag.kind === "resize-many") {
      const box = resizeBox(drag.union, drag.sx, drag.sy, p.x - drag.px, p.y - drag.py, e.shiftKey);
      const from = {
        left: drag.union.x,
        top: drag.union.y,
        width: drag.union.width,
        height: drag.union.height,
      };
      props.onPreviewBoxes(
        scaleBoxes(drag.starts, from, { left: box.x, top: box.y, width: box.width, height: box.height }),
        e.times,
      );
      return;
    }
    if (drag.kind === "rotate") {
      const abs = absoluteBox(frame, drag.id) ?? drag.start;
      // rotationTo gives the angle on screen; a nested layer stores it relative to its groups.
      const onScreen = rotationTo(abs, p.x, p.y, !e.shiftKey);
      const own = onScreen - parentRotation(frame, drag.id);
      const rotation = Math.round((((own + 540) % 360) - 180) * 10) / 10;
      props.onPreviewBoxes(new Map([[drag.id, { ...drag.start, rotation }]]), e.times);
      return;
    }
    if (drag.kind === "rotate-many") {
      const angle = rotationTo(drag.union, p.x, p.y, !e.shiftKey);
      const centre = { x: drag.union.x + drag.union.width / 2, y: drag.union.y + drag.union.height / 2 };
      props.onPreviewBoxes(rotateBoxes(drag.starts, centre, angle), e.times);
    }
  }

  /** The gesture of this pointer, if one runs. */
  function current(e: React.PointerEvent) {
    const g = gesture.current;
    return g && g.pointerId === e.pointerId ? g : null;
  }

  /** Applies a pointer state to the gesture unless it is the one applied last (nothing would change). */
  function apply(g: NonNullable<typeof gesture.current>, s: PointerSample) {
    if (s.clientX === g.x && s.clientY === g.y && s.altKey === g.alt && s.shiftKey === g.shift) return;
    g.x = s.clientX;
    g.y = s.clientY;
    g.alt = s.altKey;
    g.shift = s.shiftKey;
    update(g.drag, s);
  }

  function onPointerMove(e: React.PointerEvent) {
    const g = current(e);
    if (!g) return;
    g.pending = sampleOf(e, g.pending);
    if (g.frame !== 0) return;
    g.frame = requestAnimationFrame(() => {
      g.frame = 0;
      const s = g.pending;
      g.pending = null;
      // This render's frame and zoom may be older than the animation frame: the latest ones apply it.
      if (s && gesture.current === g) latestApply.current(g, s);
    });
  }

  const latestApply = useRef(apply);
  latestApply.current = apply;

  /** Ends a gesture's pending move without applying it. */
  function drop(g: NonNullable<typeof gesture.current>) {
    if (g.frame !== 0) cancelAnimationFrame(g.frame);
    g.frame = 0;
    g.pending = null;
    gesture.current = null;
  }

  function onPointerUp(e: React.PointerEvent) {
    const g = current(e);
    if (!g) return;
    const { drag } = g;
    // The release position is the gesture's last move, whether or not a pointermove reported it or
    // its animation frame came (a release where the pointer already was changes nothing: a click on a
    // handle stays a click).
    const release = sampleOf(e, g.pending);
    drop(g);
    apply(g, release);
    if (overlay.current?.hasPointerCapture(e.pointerId)) overlay.current.releasePointerCapture(e.pointerId);
    if (drag.kind === "create") {
      const box = normalise(drag.px, drag.py, drag.x, drag.y);
      props.onCreate(frameIndex, drag.tool, box.width * zoom < 4 || box.height * zoom < 4 ? null : box);
      setCreateBox(null);
    } else if (drag.kind === "marquee") {
      setMarquee(null);
    } else {
      props.onCommit();
    }
    setSnapGuides([]);
  }

  /** The browser took the pointer (a native drag, a touch turned into a scroll): nothing changes. */
  function onPointerCancel(e: React.PointerEvent) {
    const g = current(e);
    if (!g) return;
    const { drag } = g;
    drop(g);
    if (drag.kind === "create") {
      setCreateBox(null);
    } else if (drag.kind === "marquee") {
      setMarquee(null);
      props.onSelect(selectLayers(frameIndex, drag.base));
    } else {
      props.onCancel();
    }
    setSnapGuides([]);
  }

  /** No native drag of a document selection while a gesture runs: it would swallow the rest of it. */
  function onDragStart(e: React.DragEvent) {
    if (gesture.current) e.preventDefault();
  }

  return {
    ids,
    snapGuides,
    createBox,
    marquee,
    onPointerDown,
    onPointerMove,
    onPointerUp,
    onPointerCancel,
    onDragStart,
    onHandleDown,
    onRotateDown,
    onPasteboardDown,
    framePoint,
  };
}
