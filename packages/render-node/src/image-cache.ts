import { createHash } from "node:crypto";
import type { PreparedImage } from "@pictor/engine";
import { LRUCache } from "lru-cache";
import type { PrepareTarget } from "./prepare-image.ts";

/**
 * Prepared (decoded, fitted) images by source identity and target box, bounded by pixel bytes.
 * Concurrent requests for the same entry share one decode.
 */
export class PreparedImageCache {
  readonly #entries: LRUCache<string, PreparedImage>;
  readonly #pending = new Map<string, Promise<PreparedImage>>();

  constructor(maxBytes: number) {
    this.#entries = new LRUCache<string, PreparedImage>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (image) => Math.max(1, image.rgba.byteLength),
    });
  }

  static key(sourceId: string, target: PrepareTarget): string {
    const centred = target.focal.x === 0.5 && target.focal.y === 0.5;
    const placed = target.fit === "cover" || (target.fit === "contain" && !centred);
    const focal = placed ? `${target.focal.x},${target.focal.y}` : "-";
    return `${sourceId}|${target.width}x${target.height}|${target.fit}|${focal}`;
  }

  /** Content identity of image bytes: the same bytes under any name share cache entries. */
  static contentId(bytes: Uint8Array): string {
    return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  }

  peek(key: string): PreparedImage | undefined {
    return this.#entries.get(key);
  }

  async getOrPrepare(key: string, prepare: () => Promise<PreparedImage>): Promise<PreparedImage> {
    const cached = this.#entries.get(key);
    if (cached) return cached;
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const promise = prepare().then((image) => {
      // Larger than the whole cache: returned, never stored (LRUCache would refuse it anyway).
      if (image.rgba.byteLength <= this.#entries.maxSize) this.#entries.set(key, image);
      return image;
    });
    this.#pending.set(key, promise);
    try {
      return await promise;
    } finally {
      this.#pending.delete(key);
    }
  }

  /**
   * Drops entries larger than `bytes` (the 4x images of a scale-4 burst, 24 MB for a full-bleed photo),
   * keeping the everyday ones: called when the renderer lets go of a large render's memory.
   */
  dropLarger(bytes: number): void {
    for (const [key, image] of this.#entries.entries()) {
      if (image.rgba.byteLength > bytes) this.#entries.delete(key);
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize };
  }
}
