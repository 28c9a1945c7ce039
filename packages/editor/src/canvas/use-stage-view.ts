import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from "react";
import { clampZoom, type ZoomTarget } from "../store/view.ts";

interface Options {
  zoom: number;
  setZoom(z: number): void;
}

/**
 * Zoom and pan of the stage (the scrolling area that holds the frames): Ctrl+wheel and trackpad
 * pinch (which the browser reports as Ctrl+wheel) zoom about the pointer, the wheel scrolls, and
 * dragging with Space held (or the middle button) pans. `keepInView` scrolls a point of the content
 * (in stage pixels at the new zoom) to a place on screen after the next zoom.
 */
export function useStageView(wrap: RefObject<HTMLElement | null>, { zoom, setZoom }: Options) {
  const [space, setSpace] = useState(false);
  const anchor = useRef<{ x: number; y: number; screenX: number; screenY: number; zoom: number } | null>(
    null,
  );
  const latest = useRef({ zoom, setZoom });
  latest.current = { zoom, setZoom };

  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    function onWheel(e: WheelEvent) {
      if (!(e.ctrlKey || e.metaKey) || !el) return;
      e.preventDefault();
      const { zoom: z, setZoom: set } = latest.current;
      const next = clampZoom(z * Math.exp(-e.deltaY * 0.002));
      const rect = el.getBoundingClientRect();
      const sx = e.clientX - rect.left;
      const sy = e.clientY - rect.top;
      anchor.current = {
        x: (el.scrollLeft + sx) / z,
        y: (el.scrollTop + sy) / z,
        screenX: sx,
        screenY: sy,
        zoom: next,
      };
      set(next);
    }
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  });

  // After a zoom about the pointer, keep the point under it where it was.
  useLayoutEffect(() => {
    const el = wrap.current;
    const a = anchor.current;
    if (!el || !a || a.zoom !== zoom) return;
    anchor.current = null;
    el.scrollLeft = a.x * zoom - a.screenX;
    el.scrollTop = a.y * zoom - a.screenY;
  }, [zoom, wrap]);

  useEffect(() => {
    /**
     * Space is typed into fields, and activates a button the keyboard reached (Tab); a button the
     * pointer just clicked (a toolbar's "Fit") keeps focus too, but there Space means "pan", as in
     * every design tool, and the press must not click that button again.
     */
    let pointerPressed: Element | null = null;
    const field = (t: EventTarget | null) =>
      t instanceof HTMLElement && t.closest("input, textarea, select, [contenteditable]") !== null;
    const keyboardButton = (t: EventTarget | null) => {
      const button = t instanceof HTMLElement ? t.closest("button, [role=button], a[href]") : null;
      return button !== null && button !== pointerPressed;
    };
    const press = (e: PointerEvent) => {
      pointerPressed =
        e.target instanceof Element ? e.target.closest("button, [role=button], a[href]") : null;
    };
    const tab = (e: KeyboardEvent) => {
      if (e.key === "Tab") pointerPressed = null;
    };
    const down = (e: KeyboardEvent) => {
      tab(e);
      if (e.code !== "Space" || field(e.target) || keyboardButton(e.target)) return;
      e.preventDefault();
      if (!e.repeat) setSpace(true);
    };
    const up = (e: KeyboardEvent) => {
      if (e.code !== "Space") return;
      // The button the pointer clicked is not clicked again by the Space that panned.
      if (!field(e.target) && !keyboardButton(e.target)) e.preventDefault();
      setSpace(false);
    };
    const blur = () => setSpace(false);
    window.addEventListener("pointerdown", press, true);
    window.addEventListener("keydown", down);
    window.addEventListener("keyup", up);
    window.addEventListener("blur", blur);
    return () => {
      window.removeEventListener("pointerdown", press, true);
      window.removeEventListener("keydown", down);
      window.removeEventListener("keyup", up);
      window.removeEventListener("blur", blur);
    };
  }, []);

  // Space-drag / middle-drag pan: caught before the frames see the press.
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    let pan: { x: number; y: number; left: number; top: number; id: number } | null = null;
    const onDown = (e: PointerEvent) => {
      if (!(space || e.button === 1)) return;
      e.preventDefault();
      e.stopPropagation();
      pan = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop, id: e.pointerId };
      el.setPointerCapture(e.pointerId);
    };
    const onMove = (e: PointerEvent) => {
      if (!pan) return;
      e.stopPropagation();
      el.scrollLeft = pan.left - (e.clientX - pan.x);
      el.scrollTop = pan.top - (e.clientY - pan.y);
    };
    const onUp = (e: PointerEvent) => {
      if (!pan) return;
      e.stopPropagation();
      el.releasePointerCapture(pan.id);
      pan = null;
    };
    el.addEventListener("pointerdown", onDown, true);
    el.addEventListener("pointermove", onMove, true);
    el.addEventListener("pointerup", onUp, true);
    return () => {
      el.removeEventListener("pointerdown", onDown, true);
      el.removeEventListener("pointermove", onMove, true);
      el.removeEventListener("pointerup", onUp, true);
    };
  }, [space, wrap]);

  // Two-finger pinch on a touch screen: zoom about the fingers' midpoint (taken before the frames).
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const touches = new Map<number, { x: number; y: number }>();
    let start: { distance: number; zoom: number } | null = null;
    const spread = () => {
      const [a, b] = [...touches.values()];
      return a && b ? { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } : null;
    };
    const onDown = (e: PointerEvent) => {
      if (e.pointerType !== "touch") return;
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const s = spread();
      if (touches.size === 2 && s) {
        start = { distance: s.d, zoom: latest.current.zoom };
        e.stopPropagation();
      }
    };
    const onMove = (e: PointerEvent) => {
      if (!touches.has(e.pointerId)) return;
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const s = spread();
      if (!start || !s || start.distance === 0) return;
      e.stopPropagation();
      const { zoom: z, setZoom: set } = latest.current;
      const next = clampZoom((start.zoom * s.d) / start.distance);
      if (next === z) return;
      const rect = el.getBoundingClientRect();
      const sx = s.x - rect.left;
      const sy = s.y - rect.top;
      anchor.current = {
        x: (el.scrollLeft + sx) / z,
        y: (el.scrollTop + sy) / z,
        screenX: sx,
        screenY: sy,
        zoom: next,
      };
      set(next);
    };
    const onUp = (e: PointerEvent) => {
      touches.delete(e.pointerId);
      if (touches.size < 2) start = null;
    };
    el.addEventListener("pointerdown", onDown, true);
    el.addEventListener("pointermove", onMove, true);
    el.addEventListener("pointerup", onUp, true);
    el.addEventListener("pointercancel", onUp, true);
    return () => {
      el.removeEventListener("pointerdown", onDown, true);
      el.removeEventListener("pointermove", onMove, true);
      el.removeEventListener("pointerup", onUp, true);
      el.removeEventListener("pointercancel", onUp, true);
    };
  }, [wrap]);

  /** Scrolls so a frame's box (frame pixels) is centred in the stage, once the zoom is applied. */
  function centreOn(frameName: string, box: { x: number; y: number; width: number; height: number }) {
    requestAnimationFrame(() => {
      const el = wrap.current;
      const surface = el?.querySelector(`[data-testid="frame-overlay-${CSS.escape(frameName)}"]`);
      if (!el || !surface) return;
      const z = latest.current.zoom;
      const r = surface.getBoundingClientRect();
      const w = el.getBoundingClientRect();
      const cx = r.left - w.left + el.scrollLeft + (box.x + box.width / 2) * z;
      const cy = r.top - w.top + el.scrollTop + (box.y + box.height / 2) * z;
      el.scrollLeft = cx - el.clientWidth / 2;
      el.scrollTop = cy - el.clientHeight / 2;
    });
  }

  /**
   * Fit (every frame, at `fit`), 100 % (centred on the selection when there is one), or the selection
   * (its bounds fill 80 % of the stage, centred).
   */
  function zoomTo(
    what: ZoomTarget,
    fit: number,
    selection: { x: number; y: number; width: number; height: number } | null,
    frameName: string | undefined,
  ) {
    const set = latest.current.setZoom;
    if (what === "fit") return set(fit);
    if (what === "actual" || !selection || frameName === undefined) {
      set(1);
      if (selection && frameName !== undefined) centreOn(frameName, selection);
      return;
    }
    const el = wrap.current;
    const w = (el?.clientWidth ?? 800) * 0.8;
    const h = (el?.clientHeight ?? 600) * 0.8;
    set(clampZoom(Math.min(w / Math.max(selection.width, 1), h / Math.max(selection.height, 1))));
    centreOn(frameName, selection);
  }

  return { panning: space, centreOn, zoomTo };
}
