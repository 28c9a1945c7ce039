import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import type { FrameT, Layer, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import type { EditorEngine, FrameRender } from "../engine/load-engine.ts";
import { writeImageData } from "../engine/pixels.ts";
import { rememberLaidOutBoxes } from "../model/selection.ts";
import { pixelsShown } from "../store/input-latency.ts";
import { type DraftSplit, draftSplit, partDocument } from "./drag-draft.ts";

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
  slots: TemplateDocumentT["slots"];
}

/** The kept parts of a gesture: the layers below and above the moved ones, drawn once. */
interface Parts extends DraftSplit {
  base: FrameT;
  scale: number;
  building: Promise<Drawn>;
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
 * Draws one frame with the engine into a canvas whenever this frame, the slots, the preview values
 * or the scale change (another frame's edit does not redraw this one). Returns the last error.
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
): string | null {
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

  // A layout effect, not a passive one: the render starts in the commit, before the browser paints the
  // rest of the page's update, instead of a frame later (passive effects of a non-input update wait
  // for the paint); the engine's pixels then reach the canvas in the same frame.
  // biome-ignore lint/correctness/useExhaustiveDependencies: doc.slots is the trigger; the document itself is read from docRef
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
      shown.slots === doc.slots
        ? draftSplit(shown.frame, frame)
        : null;

    if (split !== null && shown !== null) {
      drawParts(shown.frame, split).catch(fail);
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
          whole.current = { frame, scale, values, slots: docRef.current.slots };
          // The whole frame is on the canvas: the stacked parts go in the same task (no frame between).
          showDrafts(drafts, false);
          drafted.current = null;
          parts.current = null;
          pixelsShown(frame);
        },
      })
      .then((out) => {
        if (token !== seq.current) return;
        setError(null);
        latest.current.onRendered(frameIndex, frame, out, null);
      })
      .catch(fail);

    /** The layers below and above the moved ones (kept for the gesture), then the moved ones. */
    async function drawParts(base: FrameT, split: DraftSplit): Promise<void> {
      const layers = frame.layers as Layer[];
      const part = (list: readonly Layer[], bottom: boolean) =>
        partDocument(docRef.current, frame.name, list, bottom);
      let kept = parts.current;
      if (
        !kept ||
        kept.base !== base ||
        kept.lo !== split.lo ||
        kept.hi !== split.hi ||
        kept.scale !== scale
      ) {
        // Not superseded by later moves (they wait for the same parts): a pointer that keeps moving
        // while they are drawn must not restart them.
        const request = { frame: frame.name, values, scale };
        const building = Promise.all([
          engine.render(part(layers.slice(0, split.lo), true), request),
          engine.render(part(layers.slice(split.hi + 1), false), request),
        ]).then(([below, above]) => ({
          below: imageOf(below),
          above: imageOf(above),
          boxes: { ...below.boxes, ...above.boxes },
        }));
        kept = { base, ...split, scale, building };
        parts.current = kept;
        const mine = kept;
        building.catch(() => {
          if (parts.current === mine) parts.current = null;
        });
      }
      const ready = await kept.building;
      if (token !== seq.current) return;
      const moving = await engine.render(part(layers.slice(split.lo, split.hi + 1), false), {
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
      });
      if (token !== seq.current) return;
      // Handles follow where layout put layers (stack children) in this drawing too.
      rememberLaidOutBoxes(frame, { ...ready.boxes, ...moving.boxes });
    }
  }, [engine, frame, doc.slots, values, frameIndex, scale, time, inGesture]);
  return error;
}
