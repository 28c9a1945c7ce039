/** Pointer maths of the design canvas: hit testing, snapping, resizing and rotating boxes. */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}

const RAD = Math.PI / 180;

/** True when frame point (px, py) lies inside the box, rotated about its centre. */
export function hitBox(box: Box, px: number, py: number): boolean {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const a = -box.rotation * RAD;
  const dx = px - cx;
  const dy = py - cy;
  const lx = dx * Math.cos(a) - dy * Math.sin(a);
  const ly = dx * Math.sin(a) + dy * Math.cos(a);
  return Math.abs(lx) <= box.width / 2 && Math.abs(ly) <= box.height / 2;
}

/** A frame's ruler guides: vertical ones at these x, horizontal ones at these y (frame pixels). */
export interface FrameGuides {
  x: number[];
  y: number[];
}

export interface Guide {
  axis: "x" | "y";
  at: number;
}

export interface SnapResult {
  dx: number;
  dy: number;
  guides: Guide[];
}

/**
 * Snaps a moving box (axis-aligned extent) to the frame's edges and centre lines and to the edges and
 * centres of the other layers, within `threshold` frame pixels. Returns the correction to apply.
 */
export function snapMove(
  moving: { left: number; top: number; width: number; height: number },
  frame: { width: number; height: number },
  others: readonly { left: number; top: number; width: number; height: number }[],
  threshold: number,
): SnapResult {
  const xs = [0, frame.width / 2, frame.width];
  const ys = [0, frame.height / 2, frame.height];
  for (const o of others) {
    xs.push(o.left, o.left + o.width / 2, o.left + o.width);
    ys.push(o.top, o.top + o.height / 2, o.top + o.height);
  }
  const mx = [moving.left, moving.left + moving.width / 2, moving.left + moving.width];
  const my = [moving.top, moving.top + moving.height / 2, moving.top + moving.height];
  const best = (targets: number[], own: number[]) => {
    let found: { delta: number; at: number } | null = null;
    for (const t of targets) {
      for (const p of own) {
        const d = t - p;
        if (Math.abs(d) <= threshold && (!found || Math.abs(d) < Math.abs(found.delta)))
          found = { delta: d, at: t };
      }
    }
    return found;
  };
  const bx = best(xs, mx);
  const by = best(ys, my);
  const guides: Guide[] = [];
  if (bx) guides.push({ axis: "x", at: bx.at });
  if (by) guides.push({ axis: "y", at: by.at });
  return { dx: bx?.delta ?? 0, dy: by?.delta ?? 0, guides };
}

/** Axis-aligned extent of a rotated box. */
export function extent(box: Box): { left: number; top: number; width: number; height: number } {
  const a = box.rotation * RAD;
  const c = Math.abs(Math.cos(a));
  const s = Math.abs(Math.sin(a));
  const w = box.width * c + box.height * s;
  const h = box.width * s + box.height * c;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return { left: cx - w / 2, top: cy - h / 2, width: w, height: h };
}

/**
 * Resizes from a handle: sx/sy are -1, 0 or 1 for the handle's side on each axis. The pointer delta is
 * taken in the box's own rotated axes, and the opposite side stays where it was.
 */
export function resizeBox(box: Box, sx: number, sy: number, dx: number, dy: number, keepRatio: boolean): Box {
  const a = -box.rotation * RAD;
  const lx = dx * Math.cos(a) - dy * Math.sin(a);
  const ly = dx * Math.sin(a) + dy * Math.cos(a);
  let width = Math.max(1, box.width + sx * lx);
  let height = Math.max(1, box.height + sy * ly);
  if (keepRatio && sx !== 0 && sy !== 0 && box.height > 0) {
    const ratio = box.width / box.height;
    if (width / height > ratio) height = width / ratio;
    else width = height * ratio;
  }
  const shiftX = (sx * (width - box.width)) / 2;
  const shiftY = (sy * (height - box.height)) / 2;
  const r = box.rotation * RAD;
  const cx = box.x + box.width / 2 + shiftX * Math.cos(r) - shiftY * Math.sin(r);
  const cy = box.y + box.height / 2 + shiftX * Math.sin(r) + shiftY * Math.cos(r);
  return {
    x: Math.round(cx - width / 2),
    y: Math.round(cy - height / 2),
    width: Math.round(width),
    height: Math.round(height),
    rotation: box.rotation,
  };
}

/** Angle in degrees (0 = handle straight above the centre), snapped to 15° steps when asked. */
export function rotationTo(box: Box, px: number, py: number, step: boolean): number {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let deg = Math.atan2(py - cy, px - cx) / RAD + 90;
  if (step) deg = Math.round(deg / 15) * 15;
  deg = ((deg % 360) + 360) % 360;
  if (deg > 180) deg -= 360;
  return Math.round(deg * 10) / 10;
}

type Extent = { left: number; top: number; width: number; height: number };

function nearest(targets: readonly number[], value: number, threshold: number): number | null {
  let best: number | null = null;
  for (const t of targets) {
    if (Math.abs(t - value) <= threshold && (best === null || Math.abs(t - value) < Math.abs(best - value)))
      best = t;
  }
  return best;
}

/**
 * Snaps the edges a resize handle moves (unrotated boxes only) to the frame's edges and centre lines
 * and to the other layers' edges and centres; the opposite edges stay put.
 */
export function snapResize(
  box: Box,
  sx: number,
  sy: number,
  frame: { width: number; height: number },
  others: readonly Extent[],
  threshold: number,
): { box: Box; guides: Guide[] } {
  if (box.rotation !== 0) return { box, guides: [] };
  const xs = [
    0,
    frame.width / 2,
    frame.width,
    ...others.flatMap((o) => [o.left, o.left + o.width / 2, o.left + o.width]),
  ];
  const ys = [
    0,
    frame.height / 2,
    frame.height,
    ...others.flatMap((o) => [o.top, o.top + o.height / 2, o.top + o.height]),
  ];
  const out = { ...box };
  const guides: Guide[] = [];
  if (sx !== 0) {
    const edge = sx > 0 ? box.x + box.width : box.x;
    const t = nearest(xs, edge, threshold);
    if (t !== null) {
      if (sx > 0) out.width = Math.max(1, t - box.x);
      else {
        out.width = Math.max(1, box.x + box.width - t);
        out.x = box.x + box.width - out.width;
      }
      guides.push({ axis: "x", at: t });
    }
  }
  if (sy !== 0) {
    const edge = sy > 0 ? box.y + box.height : box.y;
    const t = nearest(ys, edge, threshold);
    if (t !== null) {
      if (sy > 0) out.height = Math.max(1, t - box.y);
      else {
        out.height = Math.max(1, box.y + box.height - t);
        out.y = box.y + box.height - out.height;
      }
      guides.push({ axis: "y", at: t });
    }
  }
  return { box: out, guides };
}
