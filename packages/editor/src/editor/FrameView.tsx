import { useEffect, useRef, useState } from "react";
import type { FrameT, Layer, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import type { EditorEngine, FrameRender } from "../engine/load-engine.ts";
import { writeImageData } from "../engine/pixels.ts";
import { findLayer, type NewLayerKind } from "./doc-ops.ts";
import { EmptyLayerOutlines } from "./EmptyLayerOutlines.tsx";
import {
  type Box,
  extent,
  type Guide,
  hitBox,
  resizeBox,
  rotationTo,
  snapMove,
  snapResize,
} from "./geometry.ts";
import { absoluteBox, layerBox, parentRotation, type Selection, toParentAxes } from "./selection.ts";

export type Tool = "select" | NewLayerKind;

interface Props {
  engine: EditorEngine;
  doc: TemplateDocumentT;
  frameIndex: number;
  frame: FrameT;
  values: SlotValues;
  zoom: number;
  tool: Tool;
  selection: Selection | null;
  onSelect(selection: Selection): void;
  /** Live geometry change during a drag (not yet an undo step). */
  onPreviewBox(id: string, box: Box): void;
  onCommit(): void;
  onCreate(
    frameIndex: number,
    kind: NewLayerKind,
    box: { x: number; y: number; width: number; height: number } | null,
  ): void;
  onRendered(frameIndex: number, frame: FrameT, out: FrameRender | null, error: string | null): void;
}

type Drag =
  | { kind: "move"; id: string; start: Box; px: number; py: number; moved: boolean }
  | { kind: "resize"; id: string; start: Box; px: number; py: number; sx: number; sy: number }
  | { kind: "rotate"; id: string; start: Box }
  | { kind: "create"; tool: NewLayerKind; px: number; py: number; x: number; y: number };

const HANDLES: [number, number][] = [
  [-1, -1],
  [0, -1],
  [1, -1],
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
];

const SNAP_SCREEN_PX = 6;
/** A box thinner than this on screen (a horizontal line's box has height 0) is hit as this thick. */
const HIT_MIN_SCREEN_PX = 8;

function hitTarget(box: Box, zoom: number): Box {
  const min = HIT_MIN_SCREEN_PX / zoom;
  const width = Math.max(box.width, min);
  const height = Math.max(box.height, min);
  return { ...box, x: box.x - (width - box.width) / 2, y: box.y - (height - box.height) / 2, width, height };
}

/** One frame: the engine's pixels in a canvas, with selection handles and guides drawn over them. */
export function FrameView(props: Props) {
  const { engine, doc, frameIndex, frame, values, zoom, tool, selection } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<HTMLDivElement>(null);
  const seq = useRef(0);
  const imageData = useRef<ImageData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [guides, setGuides] = useState<Guide[]>([]);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [createBox, setCreateBox] = useState<{ x: number; y: number; width: number; height: number } | null>(
    null,
  );
  const docRef = useRef(doc);
  docRef.current = doc;
  const propsRef = useRef(props);
  propsRef.current = props;

  // Zoomed in, the engine draws at a higher scale (whole steps, 1 to 4) so text stays sharp; the
  // canvas is then shown at the zoom by CSS.
  const renderScale = Math.min(4, Math.max(1, Math.ceil(zoom * window.devicePixelRatio - 0.01)));

  // Re-render when this frame, the slots or the preview values change; other frames' edits do not.
  // biome-ignore lint/correctness/useExhaustiveDependencies: doc.slots is the trigger; the document itself is read from docRef
  useEffect(() => {
    const token = ++seq.current;
    engine
      .render(docRef.current, {
        frame: frame.name,
        values,
        scale: renderScale,
        stillWanted: () => token === seq.current,
        draw(width, height, pixels, opaque) {
          const c = canvas.current;
          const ctx = c?.getContext("2d");
          if (!c || !ctx) return;
          if (c.width !== width) c.width = width;
          if (c.height !== height) c.height = height;
          // One ImageData per canvas size, refilled in place: no 3 MB allocation per edit.
          let image = imageData.current;
          if (!image || image.width !== width || image.height !== height) {
            image = new ImageData(width, height);
            imageData.current = image;
          }
          writeImageData(image, pixels, opaque);
          ctx.putImageData(image, 0, 0);
        },
      })
      .then((out) => {
        if (token !== seq.current) return;
        setError(null);
        propsRef.current.onRendered(frameIndex, frame, out, null);
      })
      .catch((err: unknown) => {
        if (token !== seq.current) return;
        const message = err instanceof Error ? err.message : String(err);
        setError(message);
        propsRef.current.onRendered(frameIndex, frame, null, message);
      });
  }, [engine, frame, doc.slots, values, frameIndex, renderScale]);

  function framePoint(e: React.PointerEvent): { x: number; y: number } {
    const rect = overlay.current?.getBoundingClientRect();
    return { x: (e.clientX - (rect?.left ?? 0)) / zoom, y: (e.clientY - (rect?.top ?? 0)) / zoom };
  }

  function topLayerAt(x: number, y: number): Layer | null {
    const layers = frame.layers as Layer[];
    for (let i = layers.length - 1; i >= 0; i--) {
      const l = layers[i] as Layer;
      if (l.visible === false) continue;
      if (hitBox(hitTarget(layerBox(l), zoom), x, y)) return l;
    }
    return null;
  }

  function onPointerDown(e: React.PointerEvent) {
    if (e.button !== 0) return;
    const p = framePoint(e);
    overlay.current?.setPointerCapture(e.pointerId);
    if (tool !== "select") {
      setDrag({ kind: "create", tool, px: p.x, py: p.y, x: p.x, y: p.y });
      return;
    }
    const hit = topLayerAt(p.x, p.y);
    const selectedHere =
      selection?.frame === frameIndex && selection.layer ? absoluteBox(frame, selection.layer) : null;
    // Keep dragging the selected layer (e.g. a group child) when the press lands inside it.
    if (selectedHere && selection?.layer && hitBox(hitTarget(selectedHere, zoom), p.x, p.y)) {
      const start = layerStart(selection.layer);
      if (start) setDrag({ kind: "move", id: selection.layer, start, px: p.x, py: p.y, moved: false });
      return;
    }
    props.onSelect({ frame: frameIndex, layer: hit?.id ?? null });
    if (hit) setDrag({ kind: "move", id: hit.id, start: layerBox(hit), px: p.x, py: p.y, moved: false });
  }

  function layerStart(id: string): Box | null {
    const l = findLayer(frame.layers, id);
    return l ? layerBox(l) : null;
  }

  function onHandleDown(e: React.PointerEvent, sx: number, sy: number) {
    e.stopPropagation();
    if (!selection?.layer) return;
    const start = layerStart(selection.layer);
    if (!start) return;
    const p = framePoint(e);
    overlay.current?.setPointerCapture(e.pointerId);
    setDrag({ kind: "resize", id: selection.layer, start, px: p.x, py: p.y, sx, sy });
  }

  function onRotateDown(e: React.PointerEvent) {
    e.stopPropagation();
    if (!selection?.layer) return;
    const start = layerStart(selection.layer);
    if (!start) return;
    overlay.current?.setPointerCapture(e.pointerId);
    setDrag({ kind: "rotate", id: selection.layer, start });
  }

  function onPointerMove(e: React.PointerEvent) {
    if (!drag) return;
    const p = framePoint(e);
    if (drag.kind === "create") {
      setDrag({ ...drag, x: p.x, y: p.y });
      setCreateBox(normalise(drag.px, drag.py, p.x, p.y));
      return;
    }
    if (drag.kind === "move") {
      const dx = p.x - drag.px;
      const dy = p.y - drag.py;
      if (!drag.moved && Math.hypot(dx, dy) * zoom < 2) return;
      const isTopLevel = (frame.layers as Layer[]).some((l) => l.id === drag.id);
      if (!isTopLevel) {
        // A layer inside a group moves in the group's (possibly rotated) axes, without snapping.
        const d = toParentAxes(dx, dy, parentRotation(frame, drag.id));
        setDrag({ ...drag, moved: true });
        props.onPreviewBox(drag.id, {
          ...drag.start,
          x: Math.round(drag.start.x + d.x),
          y: Math.round(drag.start.y + d.y),
        });
        return;
      }
      const moved: Box = { ...drag.start, x: drag.start.x + dx, y: drag.start.y + dy };
      const others = (frame.layers as Layer[])
        .filter((l) => l.id !== drag.id && l.visible !== false)
        .map((l) => extent(layerBox(l)));
      const snap = e.altKey
        ? { dx: 0, dy: 0, guides: [] }
        : snapMove(extent(moved), frame, others, SNAP_SCREEN_PX / zoom);
      setGuides(snap.guides);
      setDrag({ ...drag, moved: true });
      props.onPreviewBox(drag.id, {
        ...moved,
        x: Math.round(moved.x + snap.dx),
        y: Math.round(moved.y + snap.dy),
      });
      return;
    }
    if (drag.kind === "resize") {
      const d = toParentAxes(p.x - drag.px, p.y - drag.py, parentRotation(frame, drag.id));
      const box = resizeBox(drag.start, drag.sx, drag.sy, d.x, d.y, e.shiftKey);
      const isTopLevel = (frame.layers as Layer[]).some((l) => l.id === drag.id);
      if (e.altKey || e.shiftKey || !isTopLevel) {
        setGuides([]);
        props.onPreviewBox(drag.id, box);
        return;
      }
      const others = (frame.layers as Layer[])
        .filter((l) => l.id !== drag.id && l.visible !== false)
        .map((l) => extent(layerBox(l)));
      const snapped = snapResize(box, drag.sx, drag.sy, frame, others, SNAP_SCREEN_PX / zoom);
      setGuides(snapped.guides);
      props.onPreviewBox(drag.id, snapped.box);
      return;
    }
    if (drag.kind === "rotate") {
      const abs = absoluteBox(frame, drag.id) ?? drag.start;
      // rotationTo gives the angle on screen; a nested layer stores it relative to its groups.
      const onScreen = rotationTo(abs, p.x, p.y, !e.shiftKey);
      const own = onScreen - parentRotation(frame, drag.id);
      props.onPreviewBox(drag.id, {
        ...drag.start,
        rotation: Math.round((((own + 540) % 360) - 180) * 10) / 10,
      });
    }
  }

  function onPointerUp(e: React.PointerEvent) {
    if (!drag) return;
    overlay.current?.releasePointerCapture(e.pointerId);
    if (drag.kind === "create") {
      const box = normalise(drag.px, drag.py, drag.x, drag.y);
      props.onCreate(frameIndex, drag.tool, box.width * zoom < 4 || box.height * zoom < 4 ? null : box);
      setCreateBox(null);
    } else {
      props.onCommit();
    }
    setGuides([]);
    setDrag(null);
  }

  const selected =
    selection?.frame === frameIndex && selection.layer ? absoluteBox(frame, selection.layer) : null;
  const frameSelected = selection?.frame === frameIndex && selection.layer === null;

  return (
    <div className="frame-block">
      <div className={`frame-label ${frameSelected ? "active" : ""}`}>
        <button type="button" onClick={() => props.onSelect({ frame: frameIndex, layer: null })}>
          {frame.name}
        </button>
        <span className="muted">
          {frame.width} × {frame.height}
        </span>
        {error && (
          <span className="frame-error" title={error}>
            ⚠ not rendered
          </span>
        )}
      </div>
      <div
        className={`frame-surface ${frameSelected ? "active" : ""}`}
        style={{ width: frame.width * zoom, height: frame.height * zoom }}
      >
        <canvas
          ref={canvas}
          className="frame-canvas"
          data-testid={`frame-canvas-${frame.name}`}
          style={{ width: frame.width * zoom, height: frame.height * zoom }}
        />
        <div
          ref={overlay}
          className={`frame-overlay tool-${tool}`}
          data-testid={`frame-overlay-${frame.name}`}
          data-zoom={zoom}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
        >
          <EmptyLayerOutlines doc={doc} frame={frame} values={values} zoom={zoom} />
          {guides.map((g) =>
            g.axis === "x" ? (
              <div key={`x${g.at}`} className="guide v" style={{ left: g.at * zoom }} />
            ) : (
              <div key={`y${g.at}`} className="guide h" style={{ top: g.at * zoom }} />
            ),
          )}
          {createBox && (
            <div
              className="create-box"
              style={{
                left: createBox.x * zoom,
                top: createBox.y * zoom,
                width: createBox.width * zoom,
                height: createBox.height * zoom,
              }}
            />
          )}
          {selected && (
            <div
              className="selection"
              data-testid="selection-box"
              style={{
                left: selected.x * zoom,
                top: selected.y * zoom,
                width: selected.width * zoom,
                height: selected.height * zoom,
                transform: `rotate(${selected.rotation}deg)`,
              }}
            >
              <div className="rotate-stem" />
              <div
                className="handle rotate"
                data-testid="handle-rotate"
                onPointerDown={onRotateDown}
                title="Rotate (Shift: free angle)"
              />
              {HANDLES.map(([sx, sy]) => (
                <div
                  key={`${sx},${sy}`}
                  className="handle"
                  data-testid={`handle-${sx},${sy}`}
                  style={{
                    left: `${(sx + 1) * 50}%`,
                    top: `${(sy + 1) * 50}%`,
                    cursor: cursorFor(sx, sy, selected.rotation),
                  }}
                  onPointerDown={(e) => onHandleDown(e, sx, sy)}
                />
              ))}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function normalise(x1: number, y1: number, x2: number, y2: number) {
  return {
    x: Math.round(Math.min(x1, x2)),
    y: Math.round(Math.min(y1, y2)),
    width: Math.round(Math.abs(x2 - x1)),
    height: Math.round(Math.abs(y2 - y1)),
  };
}

const CURSORS = ["ns-resize", "nesw-resize", "ew-resize", "nwse-resize"];

function cursorFor(sx: number, sy: number, rotation: number): string {
  const base = (Math.atan2(sy, sx) * 180) / Math.PI + rotation;
  const idx = Math.round(((((base + 90) % 180) + 180) % 180) / 45) % 4;
  return CURSORS[idx] ?? "move";
}
