import { useRef } from "react";
import type { FrameT, Layer, SlotValues, TemplateDocumentT, TextLayerT } from "../engine/engine-types.ts";
import type { EditorEngine, FrameRender } from "../engine/load-engine.ts";
import { findLayer, type NewLayerKind } from "../model/doc-ops.ts";
import { type Box, hitBox } from "../model/geometry.ts";
import { eachLayer } from "../model/layer-tree.ts";
import { absoluteBox, type Selection } from "../model/selection.ts";
import { EmptyLayerOutlines } from "./EmptyLayerOutlines.tsx";
import { InlineTextEditor } from "./InlineTextEditor.tsx";
import { Rulers } from "./Rulers.tsx";
import { MemberOutlines, SelectionHandles } from "./SelectionHandles.tsx";
import { type FrameGuides, selectionBounds, type Tool, useFrameGestures } from "./use-frame-gestures.ts";
import { useFrameRender } from "./use-frame-render.ts";

export type { FrameGuides, Tool };

interface Props {
  engine: EditorEngine;
  doc: TemplateDocumentT;
  frameIndex: number;
  frame: FrameT;
  values: SlotValues;
  zoom: number;
  tool: Tool;
  selection: Selection | null;
  locked: ReadonlySet<string>;
  guides: FrameGuides;
  showRulers: boolean;
  /** The text layer being typed into on this frame, if any. */
  editing: string | null;
  onGuides(frameIndex: number, guides: FrameGuides): void;
  onSelect(selection: Selection): void;
  /** Live geometry change during a drag (not yet an undo step). */
  onPreviewBoxes(frameIndex: number, boxes: ReadonlyMap<string, Box>): void;
  onCommit(): void;
  /** A drag the browser cancelled: its previews are dropped. */
  onCancel(): void;
  onCreate(
    frameIndex: number,
    kind: NewLayerKind,
    box: { x: number; y: number; width: number; height: number } | null,
  ): void;
  onRendered(frameIndex: number, frame: FrameT, out: FrameRender | null, error: string | null): void;
  onEditText(frameIndex: number, id: string | null): void;
  onText(frameIndex: number, id: string, text: string, eventTime: number): void;
}

/** One frame: the engine's pixels in a canvas, with selection handles, guides and rulers over them. */
export function FrameView(props: Props) {
  const { engine, doc, frameIndex, frame, values, zoom, tool, selection, editing } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<HTMLDivElement>(null);
  const surface = useRef<HTMLDivElement>(null);

  // Zoomed in, the engine draws at a higher scale (whole steps, 1 to 4) so text stays sharp; the
  // canvas is then shown at the zoom by CSS.
  const renderScale = Math.min(4, Math.max(1, Math.ceil(zoom * window.devicePixelRatio - 0.01)));
  const error = useFrameRender(canvas, {
    engine,
    doc,
    frameIndex,
    frame,
    values,
    scale: renderScale,
    onRendered: props.onRendered,
  });

  const gestures = useFrameGestures(overlay, {
    frameIndex,
    frame,
    zoom,
    tool,
    selection,
    locked: props.locked,
    guides: props.guides,
    onSelect: props.onSelect,
    onPreviewBoxes: (boxes) => props.onPreviewBoxes(frameIndex, boxes),
    onCommit: props.onCommit,
    onCancel: props.onCancel,
    onCreate: props.onCreate,
  });
  const { ids } = gestures;

  function onDoubleClick(e: React.MouseEvent) {
    if (tool !== "select") return;
    const rect = overlay.current?.getBoundingClientRect();
    const x = (e.clientX - (rect?.left ?? 0)) / zoom;
    const y = (e.clientY - (rect?.top ?? 0)) / zoom;
    // The topmost text under the pointer, at any depth (a text inside a group too).
    const texts = [...eachLayer(frame.layers as Layer[])].filter(
      (l) => l.type === "text" && l.visible !== false && !props.locked.has(l.id),
    );
    for (let i = texts.length - 1; i >= 0; i--) {
      const l = texts[i] as Layer;
      const b = absoluteBox(frame, l.id);
      if (b && hitBox(b, x, y)) {
        props.onSelect({ frame: frameIndex, layer: l.id });
        props.onEditText(frameIndex, l.id);
        return;
      }
    }
  }

  const single = ids.length === 1 && ids[0] ? absoluteBox(frame, ids[0]) : null;
  const many = ids.length > 1 ? selectionBounds(frame, ids) : null;
  const handlesBox = single ?? many;
  const frameSelected = selection?.frame === frameIndex && ids.length === 0;
  const editedLayer = editing ? findLayer(frame.layers as Layer[], editing) : null;
  const editedBox = editing ? absoluteBox(frame, editing) : null;
  const boundSlot = editedLayer?.bind?.text;
  const rich = Boolean(
    boundSlot && doc.slots.some((s) => s.name === boundSlot && s.type === "text" && s.rich),
  );

  return (
    <div className={`frame-block ${props.showRulers ? "with-rulers" : ""}`}>
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
        ref={surface}
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
          role="application"
          aria-label={`Frame ${frame.name}: drag to select or move, double-click a text to type`}
          data-testid={`frame-overlay-${frame.name}`}
          data-zoom={zoom}
          onPointerDown={gestures.onPointerDown}
          onPointerMove={gestures.onPointerMove}
          onPointerUp={gestures.onPointerUp}
          onPointerCancel={gestures.onPointerCancel}
          onDragStart={gestures.onDragStart}
          onDoubleClick={onDoubleClick}
        >
          <EmptyLayerOutlines doc={doc} frame={frame} values={values} zoom={zoom} />
          {gestures.snapGuides.map((g) =>
            g.axis === "x" ? (
              <div key={`x${g.at}`} className="guide v" style={{ left: g.at * zoom }} />
            ) : (
              <div key={`y${g.at}`} className="guide h" style={{ top: g.at * zoom }} />
            ),
          )}
          {gestures.createBox && <Rect className="create-box" box={gestures.createBox} zoom={zoom} />}
          {gestures.marquee && (
            <Rect className="marquee" testId="marquee" box={gestures.marquee} zoom={zoom} />
          )}
          {many && (
            <MemberOutlines
              boxes={ids.flatMap((id) => {
                const b = absoluteBox(frame, id);
                return b ? [b] : [];
              })}
              zoom={zoom}
            />
          )}
          {handlesBox && !editing && (
            <SelectionHandles
              box={handlesBox}
              zoom={zoom}
              multiple={many !== null}
              onHandleDown={gestures.onHandleDown}
              onRotateDown={gestures.onRotateDown}
            />
          )}
          {editedLayer?.type === "text" && editedBox && (
            <InlineTextEditor
              key={editedLayer.id}
              layer={editedLayer as TextLayerT}
              box={editedBox}
              zoom={zoom}
              rich={rich}
              parseRich={engine.module.parseRichText}
              onText={(text, at) => props.onText(frameIndex, editedLayer.id, text, at)}
              onDone={() => props.onEditText(frameIndex, null)}
            />
          )}
        </div>
        {props.showRulers && (
          <Rulers
            width={frame.width}
            height={frame.height}
            zoom={zoom}
            guides={props.guides}
            onGuides={(g) => props.onGuides(frameIndex, g)}
            surface={surface}
          />
        )}
      </div>
    </div>
  );
}

function Rect({
  box,
  zoom,
  className,
  testId,
}: {
  box: { x: number; y: number; width: number; height: number };
  zoom: number;
  className: string;
  testId?: string;
}) {
  return (
    <div
      className={className}
      data-testid={testId}
      style={{ left: box.x * zoom, top: box.y * zoom, width: box.width * zoom, height: box.height * zoom }}
    />
  );
}
