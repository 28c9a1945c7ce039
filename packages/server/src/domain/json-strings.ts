/**
 * Every string in a JSON value with its path (`frames[0].layers[2].src`, under `root`): documents
 * name images and assets by strings anywhere (layer sources, slot defaults, samples).
 */
export function* jsonStrings(value: unknown, root = ""): Generator<{ path: string; value: string }> {
  if (typeof value === "string") yield { path: root, value };
  else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* jsonStrings(item, `${root}[${i}]`);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) yield* jsonStrings(item, root ? `${root}.${key}` : key);
  }
}
