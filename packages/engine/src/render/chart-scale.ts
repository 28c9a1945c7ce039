/**
 * The value scale of a bar or line chart: its range and the numbers of its axis. Plain arithmetic
 * only (no Math.log10 or Math.pow, whose last bits may differ between JavaScript engines), so the API
 * and the editor place every bar and tick alike.
 */

/** A value axis: its range, and the values of its ticks (gridlines and axis numbers) with their decimals. */
export interface ValueScale {
  lo: number;
  hi: number;
  ticks: number[];
  tickDecimals: number;
}

// About this many intervals between the axis's numbers.
const TICK_INTERVALS = 4;

/** 1, 2 or 5 times a power of ten, at least `raw`; and the digits after the point it needs. */
export function niceStep(raw: number): { step: number; decimals: number } {
  let decade = 1;
  let decimals = 0;
  if (!(raw > 0)) return { step: 1, decimals: 0 };
  while (decade * 10 <= raw) decade *= 10;
  while (decade > raw && decimals < 12) {
    decade /= 10;
    decimals++;
  }
  for (const factor of [1, 2, 5, 10]) {
    const step = decade * factor;
    if (step >= raw) return { step, decimals: factor === 10 ? Math.max(0, decimals - 1) : decimals };
  }
  return { step: decade * 10, decimals: Math.max(0, decimals - 1) };
}

/**
 * The range a chart's values are drawn in. Bars always include zero (they grow from it). Equal ends
 * open up: all zero is 0..1; one value v is 0..v (or v..0). `nice` (an axis or gridlines are shown)
 * widens an automatic range to whole ticks; a range the designer set is kept as set.
 */
export function valueScale(
  values: readonly number[],
  options: { includeZero: boolean; min?: number | undefined; max?: number | undefined; nice: boolean },
): ValueScale {
  let lo = values.length === 0 ? 0 : Math.min(...values);
  let hi = values.length === 0 ? 0 : Math.max(...values);
  if (options.includeZero || lo === hi) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (lo === hi) hi = lo + 1;
  const fixed = options.min !== undefined || options.max !== undefined;
  lo = options.min ?? lo;
  hi = options.max ?? hi;
  if (!(hi > lo)) hi = lo + 1;
  const { step, decimals } = niceStep((hi - lo) / TICK_INTERVALS);
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  if (options.nice && !fixed) {
    const widenedLo = Math.floor(lo / step + 1e-9);
    const widenedHi = Math.ceil(hi / step - 1e-9);
    return {
      lo: widenedLo * step + 0,
      hi: widenedHi * step + 0,
      ticks: range(widenedLo, widenedHi).map((k) => k * step + 0),
      tickDecimals: decimals,
    };
  }
  // `+ 0` turns -0 into 0.
  return { lo, hi, ticks: range(first, last).map((k) => k * step + 0), tickDecimals: decimals };
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k <= to && out.length <= 100; k++) out.push(k);
  return out;
}
