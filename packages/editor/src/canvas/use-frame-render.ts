import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { FrameT, Layer, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import type { EditorEngine, FrameRender } from "../engine/load-engine.ts";
import { writeImageData } from "../engine/pixels.ts";
import { rememberLaidOutBoxes } from "../model/selection.ts";
import { pixelsShown } from "../store/input-latency.ts";
import { type DraftSplit, draftSplit, partDocument, splitFor } from "./drag-draft.ts";

interface Options {
  engine: EditorEngine;
  doc: TemplateDocumentT;
  frameIndex: number;
  frame: FrameT;
  values: SlotValues;
  scale: number;
  /** Seconds into an animated frame (the timeline); null: its poster moment. */
  time: number | null;
  /** A pointer gesture is previewing the document: the frame may be drawn in parts (drag-draft.ts). */
  inGesture: boolean;
  /** The selected layers of this frame: the parts a drag of them draws are prepared ahead. */
  selected: readonly string[];
  onRendered(frameIndex: number, frame: FrameT, out: FrameRender | null, error: string | null): void;
}

/** Canvases stacked over the frame's canvas while a gesture is drawn in parts. */
export interface DraftCanvases {
  moving: RefObject<HTMLCanvasElement | null>;
  above: RefObject<HTMLCanvasElement | null>;
}

/** What the frame's canvas shows when it shows the frame whole, and what that drawing depended on. */
interface Whole {
  frame: FrameT;
  scale: number;
  values: SlotValues;
  /** The document drawn (its properties other than the frames: slots, inline styles, locale). */
  doc: TemplateDocumentT;
  /** How long the engine took to draw it, ms. */
  drawMs: number;
}

/**
 * The kept parts: the layers below and above the moved ones, each drawn once. They stay valid while
 * what they drew is the same objects (the layers of each part, the frame's other properties, the
 * document's other properties, the scale and values): a second drag of the same layers, or one after
 * an edit of the moved layers, draws no part again.
 */
interface Parts extends DraftSplit {
  below: readonly Layer[];
  above: readonly Layer[];
  frame: FrameT;
  doc: TemplateDocumentT;
  scale: number;
  values: SlotValues;
  building: Promise<Drawn>;
}

/**
 * A whole drawing at least this long (ms) makes the first move of a drag wait noticeably for its
 * parts: they are then drawn ahead, while the editor is idle, for the selected layers.
 */
const DRAW_AHEAD_MS = 30;

/** The same objects in every property but `except` (the frame's layers, the document's frames). */
function sameBut(a: object, b: object, except: string): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) if (k !== except && x[k] !== y[k]) return false;
  return true;
}

const sameLayers = (a: readonly Layer[], b: readonly Layer[]) =>
  a.length === b.length && a.every((l, i) => l === b[i]);

/** Whether kept parts draw what `frame` split at `split` has below and above its moved layers. */
function partsFit(
  kept: Parts,
  frame: FrameT,
  doc: TemplateDocumentT,
  split: DraftSplit,
  scale: number,
  values: SlotValues,
): boolean {
  const layers = frame.layers as Layer[];
  return (
    kept.lo === split.lo &&
    kept.hi === split.hi &&
    kept.scale === scale &&
    kept.values === values &&
    sameLayers(kept.below, layers.slice(0, split.lo)) &&
    sameLayers(kept.above, layers.slice(split.hi + 1)) &&
    sameBut(kept.frame, frame, "layers") &&
    sameBut(kept.doc, doc, "frames")
  );
}

/** Runs `task` when the browser is idle (a timer where it cannot tell); returns its cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(task, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 100);
  return () => clearTimeout(timer);
}

interface Drawn {
  below: ImageData;
  above: ImageData;
  boxes: FrameRender["boxes"];
}

function imageOf(r: FrameRender): ImageData {
  const image = new ImageData(r.width, r.height);
  writeImageData(image, r.pixels, r.opaque);
  return image;
}

function put(
  c: HTMLCanvasElement | null,
  image: ImageData | null,
  width: number,
  height: number,
  fill: (image: ImageData) => void,
): ImageData | null {
  const ctx = c?.getContext("2d");
  if (!c || !ctx) return image;
  if (c.width !== width) c.width = width;
  if (c.height !== height) c.height = height;
  // One ImageData per canvas size, refilled in place: no 3 MB allocation per draw.
  let target = image;
  if (!target || target.width !== width || target.height !== height) target = new ImageData(width, height);
  fill(target);
  ctx.putImageData(target, 0, 0);
  return target;
}

function showDrafts(drafts: DraftCanvases, visible: boolean): void {
  for (const ref of [drafts.moving, drafts.above]) {
    if (ref.current) ref.current.style.visibility = visible ? "visible" : "";
  }
}

/**
 * Draws one frame with the engine into a canvas whenever this frame, the slots, the inline styles, the
 * locale, the preview values or the scale change (another frame's edit does not redraw this one).
 * Returns the last error and a way to draw a gesture's parts ahead.
 *
 * During a pointer gesture the frame is drawn in parts (drag-draft.ts): the layers below and above
 * the moved ones once, then only the moved ones per pointer move, on canvases stacked over this one;
 * when the gesture ends the whole frame is drawn again and the stacked canvases are hidden in the same
 * task, so the canvas ends on the engine's pixels of the document, the API's.
 */
export function useFrameRender(
  canvas: RefObject<HTMLCanvasElement | null>,
  drafts: DraftCanvases,
  options: Options,
): { error: string | null; prepareParts(ids: readonly string[]): void } {
  const { engine, doc, frameIndex, frame, values, scale, time, inGesture } = options;
  const seq = useRef(0);
  const images = useRef(new Map<HTMLCanvasElement, ImageData>());
  const whole = useRef<Whole | null>(null);
  const parts = useRef<Parts | null>(null);
  /** The kept parts whose bottom the frame's canvas shows (with the others stacked over it). */
  const drafted = useRef<Drawn | null>(null);
  const [error, setError] = useState<string | null>(null);
  const docRef = useRef(doc);
  docRef.current = doc;
  const latest = useRef(options);
  latest.current = options;
  const cancelDrawAhead = useRef<(() => void) | null>(null);

  /**
   * The kept parts for `frame` split at `split`, drawn now unless kept ones fit. Not superseded by
   * later moves (they wait for the same parts): a pointer that keeps moving while they are drawn must
   * not restart them.
   */
  function partsFor(frame: FrameT, split: DraftSplit): Parts {
    const { engine, values, scale } = latest.current;
    const doc = docRef.current;
    const kept = parts.current;
    if (kept && partsFit(kept, frame, doc, split, scale, values)) return kept;
    const layers = frame.layers as Layer[];
    const below = layers.slice(0, split.lo);
    const above = layers.slice(split.hi + 1);
    const request = { frame: frame.name, values, scale };
    const building = Promise.all([
      engine.render(partDocument(doc, frame.name, below, true), request),
      engine.render(partDocument(doc, frame.name, above, false), request),
    ]).then(([b, a]) => ({ below: imageOf(b), above: imageOf(a), boxes: { ...b.boxes, ...a.boxes } }));
    const made: Parts = { ...split, below, above, frame, doc, scale, values, building };
    parts.current = made;
    building.catch(() => {
      if (parts.current === made) parts.current = null;
    });
    return made;
  }

  /**
   * Draws the parts a gesture on the layers `ids` will draw, ahead of its first move (a press, before
   * the pointer has moved far enough to drag; or the selection, while the editor is idle).
   */
  function prepareParts(ids: readonly string[]): void {
    const { frame, time } = latest.current;
    if (time !== null || ids.length === 0) return;
    const split = splitFor(frame, ids);
    if (split) partsFor(frame, split).building.catch(() => {});
  }

  /** Once the frame is drawn whole: the selection's parts, drawn when idle if drawing is slow. */
  function drawAhead(): void {
    cancelDrawAhead.current?.();
    cancelDrawAhead.current = whenIdle(() => {
      cancelDrawAhead.current = null;
      const o = latest.current;
      const shown = whole.current;
      if (o.inGesture || !shown || shown.frame !== o.frame || shown.drawMs < DRAW_AHEAD_MS) return;
      prepareParts(o.selected);
    });
  }
  const selectedKey = options.selected.join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the selection (by its ids) is the trigger
  useEffect(() => {
    // Nothing selected here: the kept parts (two frame-sized images at the drawing's scale) go.
    if (selectedKey === "" && !latest.current.inGesture) parts.current = null;
    else drawAhead();
    return () => cancelDrawAhead.current?.();
  }, [selectedKey]);

  // A layout effect, not a passive one: the render starts in the commit, before the browser paints the
  // rest of the page's update, instead of a frame later (passive effects of a non-input update wait
  // for the paint); the engine's pixels then reach the canvas in the same frame.
  // What of the document besides the frame changes its drawing: the slots, the inline styles rich
  // text names as tags, the locale numbers and dates are written in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: those are the triggers; the document itself is read from docRef
  useLayoutEffect(() => {
    const token = ++seq.current;
    const stillWanted = () => token === seq.current;
    const onto = (
      c: HTMLCanvasElement | null,
      width: number,
      height: number,
      fill: (i: ImageData) => void,
    ) => {
      if (!c) return;
      const image = put(c, images.current.get(c) ?? null, width, height, fill);
      if (image) images.current.set(c, image);
    };
    const fail = (err: unknown) => {
      if (token !== seq.current) return;
      const message = err instanceof Error ? err.message : String(err);
      setError(message);
      latest.current.onRendered(frameIndex, frame, null, message);
    };

    const shown = whole.current;
    const split =
      inGesture &&
      time === null &&
      shown !== null &&
      shown.scale === scale &&
      shown.values === values &&
      sameBut(shown.doc, docRef.current, "frames")
        ? draftSplit(shown.frame, frame)
        : null;

    if (split !== null && shown !== null) {
      drawParts(split).catch(fail);
      return;
    }

    engine
      .render(docRef.current, {
        frame: frame.name,
        values,
        scale,
        ...(time === null ? {} : { time }),
        stillWanted,
        draw(width, height, pixels, opaque) {
          onto(canvas.current, width, height, (image) => writeImageData(image, pixels, opaque));
          whole.current = { frame, scale, values, doc: docRef.current, drawMs: 0 };
          // The whole frame is on the canvas: the stacked parts go in the same task (no frame between).
          showDrafts(drafts, false);
          drafted.current = null;
          pixelsShown(frame);
        },
      })
      .then((out) => {
        if (token !== seq.current) return;
        if (whole.current?.frame === frame) whole.current.drawMs = out.drawMs;
        drawAhead();
        setError(null);
        latest.current.onRendered(frameIndex, frame, out, null);
      })
      .catch(fail);

    /** The layers below and above the moved ones (kept while they fit), then the moved ones. */
    async function drawParts(split: DraftSplit): Promise<void> {
      const layers = frame.layers as Layer[];
      const kept = partsFor(frame, split);
      const ready = await kept.building;
      if (token !== seq.current) return;
      const moving = await engine.render(
        partDocument(docRef.current, frame.name, layers.slice(split.lo, split.hi + 1), false),
        {
          frame: frame.name,
          values,
          scale,
          stillWanted,
          draw(width, height, pixels, opaque) {
            onto(drafts.moving.current, width, height, (image) => writeImageData(image, pixels, opaque));
            if (drafted.current !== ready) {
              onto(canvas.current, width, height, (image) => image.data.set(ready.below.data));
              onto(drafts.above.current, width, height, (image) => image.data.set(ready.above.data));
              showDrafts(drafts, true);
              drafted.current = ready;
            }
            pixelsShown(frame);
          },
        },
      );
      if (token !== seq.current) return;
      // Handles follow where layout put layers (stack children) in this drawing too.
      rememberLaidOutBoxes(frame, { ...ready.boxes, ...moving.boxes });
    }
  }, [engine, frame, doc.slots, doc.inline_styles, doc.locale, values, frameIndex, scale, time, inGesture]);
  return { error, prepareParts };
}
