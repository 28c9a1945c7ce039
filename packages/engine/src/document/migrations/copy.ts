/**
 * Copies own enumerable properties except `skip` onto `target`. defineProperty, not assignment: a
 * `__proto__` key from JSON.parse must stay a plain data property, never re-point the prototype.
 */
export function copyProperties(
  source: Record<string, unknown>,
  target: Record<string, unknown>,
  skip: readonly string[],
): Record<string, unknown> {
  for (const key of Object.keys(source)) {
    if (skip.includes(key)) continue;
    setProperty(target, key, source[key]);
  }
  return target;
}

export function setProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) return;
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
