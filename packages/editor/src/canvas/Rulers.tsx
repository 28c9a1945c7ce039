import { useRef, useState } from "react";
import type { FrameGuides } from "../model/geometry.ts";

interface Props {
  width: number;
  height: number;
  zoom: number;
  guides: FrameGuides;
  onGuides(guides: FrameGuides): void;
  /** The frame surface, to turn pointer positions into frame pixels. */
  surface: React.RefObject<HTMLDivElement | null>;
}

type Axis = "x" | "y";

/** Tick spacing in frame pixels: about every 80 screen pixels, on 1-2-5 steps. */
function tickStep(zoom: number): number {
  const raw = 80 / zoom;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (pow * m >= raw) return pow * m;
  return pow * 10;
}

interface GuideDrag {
  axis: Axis;
  index: number;
  at: number;
  pointerId: number;
  /** The pointer position `at` was taken from (client pixels). */
  x: number;
  y: number;
}

/**
 * Rulers along the top and left of a frame. Drag from a ruler onto the frame to add a guide (as in
 * every design tool, the top ruler gives a horizontal guide, the left one a vertical guide), drag
 * a guide to move it, back onto its ruler (or off the frame) to remove it. Focus a guide and use
 * the arrows to move it (Shift: 10 px), Delete to remove it. Layers snap to guides.
 *
 * Like the frame's gestures (use-frame-gestures.ts): the drag lives in a ref (the state only draws
 * the guide), the release position is where the guide goes, a native drag of a document selection
 * cannot start during the drag, and a pointercancel leaves the guides as they were.
 */
export function Rulers({ width, height, zoom, guides, onGuides, surface }: Props) {
  const drag = useRef<GuideDrag | null>(null);
  const [dragging, setDragging] = useState<GuideDrag | null>(null);
  const step = tickStep(zoom);

  function at(e: React.PointerEvent, axis: Axis): number {
    const rect = surface.current?.getBoundingClientRect();
    const v = axis === "x" ? e.clientX - (rect?.left ?? 0) : e.clientY - (rect?.top ?? 0);
    return Math.round(v / zoom);
  }

  function show(next: GuideDrag | null) {
    drag.current = next;
    setDragging(next);
  }

  function begin(e: React.PointerEvent, axis: Axis, index: number) {
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    const start = index >= 0 ? (guides[axis][index] ?? 0) : at(e, axis);
    show({ axis, index, at: start, pointerId: e.pointerId, x: e.clientX, y: e.clientY });
  }

  /** The drag of this pointer, if one runs. */
  function current(e: React.PointerEvent): GuideDrag | null {
    const d = drag.current;
    return d && d.pointerId === e.pointerId ? d : null;
  }

  function move(e: React.PointerEvent) {
    const d = current(e);
    if (d) show({ ...d, at: at(e, d.axis), x: e.clientX, y: e.clientY });
  }

  function end(e: React.PointerEvent) {
    const d = current(e);
    if (!d) return;
    const { axis, index } = d;
    // The release position, unless the pointer is still where `at` was taken (a click keeps a guide).
    const value = e.clientX === d.x && e.clientY === d.y ? d.at : at(e, axis);
    const limit = axis === "x" ? width : height;
    const list = guides[axis].slice();
    if (index >= 0) list.splice(index, 1);
    if (value > 0 && value < limit) list.push(value);
    onGuides({ ...guides, [axis]: list });
    show(null);
  }

  function cancel(e: React.PointerEvent) {
    if (current(e)) show(null);
  }

  function noNativeDrag(e: React.DragEvent) {
    if (drag.current) e.preventDefault();
  }

  function keyMove(e: React.KeyboardEvent, axis: Axis, index: number) {
    const list = guides[axis].slice();
    const step = e.shiftKey ? 10 : 1;
    const back = axis === "x" ? "ArrowLeft" : "ArrowUp";
    const fwd = axis === "x" ? "ArrowRight" : "ArrowDown";
    if (e.key === back || e.key === fwd) list[index] = (list[index] ?? 0) + (e.key === fwd ? step : -step);
    else if (e.key === "Delete" || e.key === "Backspace") list.splice(index, 1);
    else return;
    e.preventDefault();
    e.stopPropagation();
    onGuides({ ...guides, [axis]: list });
  }

  /** Enter or Space on a focused ruler adds a guide across the frame's middle (then arrows move it). */
  function keyAdd(e: React.KeyboardEvent, axis: Axis) {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    const middle = Math.round((axis === "x" ? width : height) / 2);
    onGuides({ ...guides, [axis]: [...guides[axis], middle] });
  }

  const ticks = (length: number) => {
    const out: number[] = [];
    for (let v = 0; v <= length; v += step) out.push(v);
    return out;
  };

  const shown = (axis: Axis) =>
    guides[axis]
      .map((v, index) => ({
        v: dragging?.axis === axis && dragging.index === index ? dragging.at : v,
        index,
      }))
      .concat(dragging?.axis === axis && dragging.index < 0 ? [{ v: dragging.at, index: -1 }] : []);

  return (
    <>
      <button
        type="button"
        className="ruler ruler-x"
        data-testid="ruler-x"
        style={{ width: width * zoom }}
        onPointerDown={(e) => begin(e, "y", -1)}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={cancel}
        onDragStart={noNativeDrag}
        onKeyDown={(e) => keyAdd(e, "y")}
        aria-label="Add a horizontal guide (drag down onto the frame, or Enter)"
        title="Drag down onto the frame for a horizontal guide"
      />
      <div className="ruler ruler-x ruler-ticks" aria-hidden="true" style={{ width: width * zoom }}>
        {ticks(width).map((v) => (
          <span key={v} className="tick" style={{ left: v * zoom }}>
            {v}
          </span>
        ))}
      </div>
      <button
        type="button"
        className="ruler ruler-y"
        data-testid="ruler-y"
        style={{ height: height * zoom }}
        onPointerDown={(e) => begin(e, "x", -1)}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={cancel}
        onDragStart={noNativeDrag}
        onKeyDown={(e) => keyAdd(e, "x")}
        aria-label="Add a vertical guide (drag right onto the frame, or Enter)"
        title="Drag right onto the frame for a vertical guide"
      />
      <div className="ruler ruler-y ruler-ticks" aria-hidden="true" style={{ height: height * zoom }}>
        {ticks(height).map((v) => (
          <span key={v} className="tick" style={{ top: v * zoom }}>
            {v}
          </span>
        ))}
      </div>
      {(["x", "y"] as const).flatMap((axis) =>
        shown(axis).map(({ v, index }) => (
          <div
            key={`${axis}${index}`}
            className={`ruler-guide ${axis === "x" ? "v" : "h"}`}
            data-testid={`ruler-guide-${axis}`}
            data-at={v}
            role="slider"
            aria-orientation={axis === "x" ? "vertical" : "horizontal"}
            aria-label={`${axis === "x" ? "Vertical" : "Horizontal"} guide`}
            aria-valuenow={v}
            aria-valuemin={0}
            aria-valuemax={axis === "x" ? width : height}
            tabIndex={0}
            style={axis === "x" ? { left: v * zoom } : { top: v * zoom }}
            onPointerDown={(e) => index >= 0 && begin(e, axis, index)}
            onPointerMove={move}
            onPointerUp={end}
            onPointerCancel={cancel}
            onDragStart={noNativeDrag}
            onKeyDown={(e) => index >= 0 && keyMove(e, axis, index)}
          />
        )),
      )}
    </>
  );
}
