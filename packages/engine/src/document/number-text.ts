/**
 * A number written with `decimals` digits after the point (or, when unset, as given with at most two,
 * trailing zeros dropped), rounded half away from zero (as designers round), with a minus sign and no
 * grouping. Plain arithmetic and toFixed only, so every JavaScript engine writes the same text (the
 * runtime's locale data is not consulted).
 */
export function fixedNumber(value: number, decimals: number | undefined): string {
  const digits = decimals ?? 2;
  let factor = 1;
  for (let i = 0; i < digits; i++) factor *= 10;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
  const text = (Object.is(rounded, -0) ? 0 : rounded).toFixed(digits);
  return decimals === undefined && text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}
