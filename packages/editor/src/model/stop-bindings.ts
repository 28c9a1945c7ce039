/**
 * Bindings of stop colours after a stop is inserted at `index` (delta 1: it and later ones move up)
 * or removed from it (delta -1: its binding goes, later ones move down). Other bindings stay.
 */
export function shiftStopBindings(
  bind: Record<string, string> | undefined,
  prop: string,
  index: number,
  delta: 1 | -1,
): Record<string, string> | undefined {
  if (!bind) return bind;
  const out: Record<string, string> = {};
  const prefix = `${prop}.stops[`;
  for (const [path, slot] of Object.entries(bind)) {
    const m = path.startsWith(prefix) ? /^(\d+)\]\.color$/.exec(path.slice(prefix.length)) : null;
    const i = m ? Number(m[1]) : -1;
    if (!m || i < index) out[path] = slot;
    else if (delta === 1) out[`${prefix}${i + 1}].color`] = slot;
    else if (i > index) out[`${prefix}${i - 1}].color`] = slot;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
