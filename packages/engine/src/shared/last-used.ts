/**
 * The values of the last `size` keys asked for, each computed on its first ask: for work a render
 * repeats from the one before (a gradient's ramp, a QR code's modules), pure and keyed by its input.
 */
export class LastUsed<V> {
  readonly #entries = new Map<string, V>();
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  get(key: string, compute: () => V): V {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = compute();
      if (this.#entries.size >= this.#size) this.#entries.delete(this.#entries.keys().next().value as string);
    } else {
      // Most recently used last: a Map keeps insertion order.
      this.#entries.delete(key);
    }
    this.#entries.set(key, value);
    return value;
  }
}
