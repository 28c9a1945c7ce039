import type { EasingT } from "../document/animation.ts";

/** CSS's named timing functions as cubic Béziers. */
const NAMED: Record<Exclude<EasingT, object>, readonly [number, number, number, number] | null> = {
  linear: null,
  "ease-in": [0.42, 0, 1, 1],
  "ease-out": [0, 0, 0.58, 1],
  "ease-in-out": [0.42, 0, 0.58, 1],
};

/** Progress 0..1 through an easing: 0 at 0 and 1 at 1 exactly (a spring is settled at its end). */
export function ease(easing: EasingT | undefined, progress: number, fallback: EasingT = "linear"): number {
  const p = Math.min(1, Math.max(0, progress));
  if (p === 0 || p === 1) return p;
  const curve = easing ?? fallback;
  if (typeof curve === "string") {
    const named = NAMED[curve];
    return named === null ? p : cubicBezier(named, p);
  }
  if ("cubic_bezier" in curve) return cubicBezier(curve.cubic_bezier, p);
  return spring(curve.spring, p);
}

/** y at x on the curve from (0,0) to (1,1) with control points (x1,y1), (x2,y2), as CSS solves it. */
function cubicBezier([x1, y1, x2, y2]: readonly [number, number, number, number], x: number): number {
  const cx = 3 * x1;
  const bx = 3 * (x2 - x1) - cx;
  const ax = 1 - cx - bx;
  const cy = 3 * y1;
  const by = 3 * (y2 - y1) - cy;
  const ay = 1 - cy - by;
  const xAt = (s: number) => ((ax * s + bx) * s + cx) * s;
  // Bisection: x(s) is monotonic for x1, x2 in 0..1, and 40 halvings pass double precision's need here.
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (xAt(mid) < x) lo = mid;
    else hi = mid;
  }
  const s = (lo + hi) / 2;
  return ((ay * s + by) * s + cy) * s;
}

/**
 * A damped spring released from 0 towards 1, its own time scaled so the animation's duration is one
 * second of spring time (how design tools preview springs); underdamped springs overshoot.
 */
function spring(config: { stiffness?: number; damping?: number; mass?: number }, p: number): number {
  const k = config.stiffness ?? 100;
  const c = config.damping ?? 10;
  const m = config.mass ?? 1;
  const w0 = Math.sqrt(k / m);
  const zeta = c / (2 * Math.sqrt(k * m));
  const t = p;
  if (zeta < 1) {
    const wd = w0 * Math.sqrt(1 - zeta * zeta);
    return 1 - Math.exp(-zeta * w0 * t) * (Math.cos(wd * t) + ((zeta * w0) / wd) * Math.sin(wd * t));
  }
  return 1 - Math.exp(-w0 * t) * (1 + w0 * t);
}
