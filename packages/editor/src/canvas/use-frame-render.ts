import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import type { FrameT, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import type { EditorEngine, FrameRender } from "../engine/load-engine.ts";
import { writeImageData } from "../engine/pixels.ts";
import { pixelsShown } from "../store/typing-metrics.ts";

interface Options {
  engine: EditorEngine;
  doc: TemplateDocumentT;
  frameIndex: number;
  frame: FrameT;
  values: SlotValues;
  scale: number;
  /** Seconds into an animated frame (the timeline); null: its poster moment. */
  time: number | null;
  onRendered(frameIndex: number, frame: FrameT, out: FrameRender | null, error: string | null): void;
}

/**
 * Draws one frame with the engine into a canvas whenever this frame, the slots, the preview values
 * or the scale change (another frame's edit does not redraw this one). Returns the last error.
 */
export function useFrameRender(canvas: RefObject<HTMLCanvasElement | null>, options: Options): string | null {
  const { engine, doc, frameIndex, frame, values, scale, time } = options;
  const seq = useRef(0);
  const imageData = useRef<ImageData | null>(null);
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
    engine
      .render(docRef.current, {
        frame: frame.name,
        values,
        scale,
        ...(time === null ? {} : { time }),
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
          pixelsShown(frame);
        },
      })
      .then((out) => {
        if (token !== seq.current) return;
        setError(null);
        latest.current.onRendered(frameIndex, frame, out, null);
      })
      .catch((err: unknown) => {
        if (token !== seq.current) return;
        const message = err instanceof Error ? err.message : String(err);
        setError(message);
        latest.current.onRendered(frameIndex, frame, null, message);
      });
  }, [engine, frame, doc.slots, values, frameIndex, scale, time]);
  return error;
}
