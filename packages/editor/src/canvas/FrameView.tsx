import { useCallback, useEffect, useRef, useState } from "react";
import type { FrameT, Layer, TextLayerT } from "../engine/engine-types.ts";
import type { EditorEngine } from "../engine/load-engine.ts";
import { creatorOf } from "../layer-forms/registry.ts";
import { selectionBounds } from "../model/arrange.ts";
import { findLayer, updateLayer } from "../model/doc-ops.ts";
import { hitBox } from "../model/geometry.ts";
import { eachLayer } from "../model/layer-tree.ts";
import { absoluteBox, type Selection, selectedIds } from "../model/selection.ts";
import { inputApplied } from "../store/input-latency.ts";
import { guidesOf } from "../store/prefs.ts";
import { useEditor } from "../store/use-editor.ts";
import { EmptyLayerOutlines } from "./EmptyLayerOutlines.tsx";
import { InlineTextEditor } from "./InlineTextEditor.tsx";
import { Rulers } from "./Rulers.tsx";
import { MemberOutlines, SelectionHandles } from "./SelectionHandles.tsx";
import { Timeline } from "./Timeline.tsx";
import { useFrameGestures } from "./use-frame-gestures.ts";
import { useFrameRender } from "./use-frame-render.ts";

const NO_IDS: readonly string[] = [];

/** Starts a marquee from a press on the pasteboard (see Stage.tsx); null: the frame is gone. */
export type PasteboardPress = (e: React.PointerEvent) => void;

interface Props {
  frameIndex: number;
  frame: FrameT;
  /** Gives the stage this frame's way to start a marquee from the pasteboard around it. */
  onPasteboard?(frameIndex: number, press: PasteboardPress | null): void;
}

/**
 * One frame: the engine's pixels in a canvas, with selection handles, guides and rulers over them.
 * Everything but the frame itself comes from the editor store.
 */
export function FrameView({ frameIndex, frame, onPasteboard }: Props) {
  const editor = useEditor();
  // The stage shows frames once the engine is loaded.
  const engine = useEditor((s) => s.engine) as EditorEngine;
  const doc = useEditor((s) => s.doc);
  const values = useEditor((s) => s.values);
  const zoom = useEditor((s) => s.zoom);
  const tool = useEditor((s) => s.tool);
  const selection = useEditor((s) => s.selection);
  const locked = useEditor((s) => s.prefs.locked);
  const guides = useEditor((s) => guidesOf(s.prefs, frame.name));
  const showRulers = useEditor((s) => s.prefs.rulers);
  const editing = useEditor((s) => (s.editing?.frame === frameIndex ? s.editing.id : null));
  const canvas = useRef<HTMLCanvasElement>(null);
  const movingCanvas = useRef<HTMLCanvasElement>(null);
  const aboveCanvas = useRef<HTMLCanvasElement>(null);
  const inGesture = useEditor((s) => s.inGesture);
  const overlay = useRef<HTMLDivElement>(null);
  // Rich text parses with the template's inline styles as tags (`<em>`), as validation and renders do.
  const inlineStyles = doc.inline_styles;
  const parseRich = useCallback(
    (markup: string) =>
      engine.module.parseRichText(markup, engine.module.inlineStyleNames({ inline_styles: inlineStyles })),
    [engine, inlineStyles],
  );
  const surface = useRef<HTMLDivElement>(null);

  // Zoomed in, the engine draws at a higher scale (whole steps, 1 to 4) so text stays sharp; the
  // canvas is then shown at the zoom by CSS.
  const renderScale = Math.min(4, Math.max(1, Math.ceil(zoom * window.devicePixelRatio - 0.01)));
  // An animated frame's moment on the canvas (its timeline); null: the poster, as a still renders it.
  const [time, setTime] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const selectedHere = selection?.frame === frameIndex ? selectedIds(selection) : NO_IDS;
  const { error, prepareParts } = useFrameRender(
    canvas,
    { moving: movingCanvas, above: aboveCanvas },
    {
      engine,
      doc,
      frameIndex,
      frame,
      values,
      scale: renderScale,
      time: frame.duration === undefined ? null : time,
      inGesture,
      selected: selectedHere,
      onRendered: (fi, f, out, err) => editor.frameRendered(fi, f, out, err),
    },
  );

  /** A selection from the canvas: inline typing elsewhere ends; the Design tab unless a preview tab shows. */
  function select(s: Selection) {
    const { editing: typing, tab } = editor.getState();
    editor.select(s);
    if (typing && (s.frame !== typing.frame || s.layer !== typing.id)) editor.setEditing(null);
    if (tab !== "preview" && tab !== "api" && tab !== "url") editor.setTab("design");
  }

  const gestures = useFrameGestures(overlay, {
    frameIndex,
    frame,
    zoom,
    tool,
    selection,
    locked,
    guides,
    onSelect: select,
    onPreviewBoxes(boxes, eventTimes) {
      if (!editor.arrange.previewBoxes(frameIndex, boxes)) return;
      const moved = editor.getState().doc.frames[frameIndex];
      if (moved) for (const at of eventTimes) inputApplied("drag", moved, at);
    },
    onGestureStart: prepareParts,
    onCommit: editor.commit,
    onCancel: editor.cancel,
    onCreate(fi, id, box) {
      const creator = creatorOf(id);
      if (creator) editor.createLayer(fi, creator, box);
    },
  });
  const { ids } = gestures;
  const latestGestures = useRef(gestures);
  latestGestures.current = gestures;
  useEffect(() => {
    onPasteboard?.(frameIndex, (e) => latestGestures.current.onPasteboardDown(e));
    return () => onPasteboard?.(frameIndex, null);
  }, [frameIndex, onPasteboard]);

  function onDoubleClick(e: React.MouseEvent) {
    if (tool !== "select") return;
    const rect = overlay.current?.getBoundingClientRect();
    const x = (e.clientX - (rect?.left ?? 0)) / zoom;
    const y = (e.clientY - (rect?.top ?? 0)) / zoom;
    // The topmost text under the pointer, at any depth (a text inside a group too).
    const texts = [...eachLayer(frame.layers as Layer[])].filter(
      (l) => l.type === "text" && l.visible !== false && !locked.has(l.id),
    );
    for (let i = texts.length - 1; i >= 0; i--) {
      const l = texts[i] as Layer;
      const b = absoluteBox(frame, l.id);
      if (b && hitBox(b, x, y)) {
        select({ frame: frameIndex, layer: l.id });
        editor.setEditing({ frame: frameIndex, id: l.id });
        return;
      }
    }
  }

  /** A keystroke in the inline editor: one undo step per run of typing, timed to its pixels. */
  function typed(id: string, text: string, at: number) {
    const next = updateLayer(editor.getState().doc, frameIndex, id, (l) => ({ ...l, text }) as Layer);
    const target = next.frames[frameIndex];
    if (target) inputApplied("typing", target, at);
    editor.setDocument(next, `${id}:text`);
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
    <div className={`frame-block ${showRulers ? "with-rulers" : ""}`}>
      <div className={`frame-label ${frameSelected ? "active" : ""}`}>
        <button type="button" onClick={() => select({ frame: frameIndex, layer: null })}>
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
        {/* The moved layers and the layers above them while a drag draws the frame in parts. */}
        {[movingCanvas, aboveCanvas].map((ref, i) => (
          <canvas
            key={i === 0 ? "moving" : "above"}
            ref={ref}
            className="frame-canvas frame-draft"
            data-testid={`frame-draft-${i === 0 ? "moving" : "above"}-${frame.name}`}
            style={{ width: frame.width * zoom, height: frame.height * zoom }}
          />
        ))}
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
              boundSlot={boundSlot}
              parseRich={parseRich}
              onText={(text, at) => typed(editedLayer.id, text, at)}
              onDone={() => editor.setEditing(null)}
            />
          )}
        </div>
        {showRulers && (
          <Rulers
            width={frame.width}
            height={frame.height}
            zoom={zoom}
            guides={guides}
            onGuides={(g) => editor.setGuides(frame.name, g)}
            surface={surface}
          />
        )}
      </div>
      <Timeline
        frame={frame}
        poster={frame.duration === undefined ? 0 : engine.module.posterTime(frame)}
        time={time}
        onTime={setTime}
        playing={playing}
        onPlaying={setPlaying}
      />
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
