import type { Paragraph, ParagraphBuilder } from "canvaskit-wasm";

/**
 * Builders kept by paragraph style, reset and reused: a fresh CanvasKit builder costs about as much as
 * shaping a short label again (its text segmentation starts cold), and a render builds dozens of
 * paragraphs in a handful of styles. Bounded (least recently used out first); emptied when the font
 * collection they were made over is replaced.
 */
export class BuilderPool {
  private readonly builders = new Map<string, ParagraphBuilder>();
  private collection: object | null = null;
  private readonly capacity: number;

  constructor(capacity = 32) {
    this.capacity = capacity;
  }

  /** The builder for `style` over `collection`, reset to its initial state, or one `make` creates. */
  take(style: string, collection: object, make: () => ParagraphBuilder): ParagraphBuilder {
    if (collection !== this.collection) {
      this.clear();
      this.collection = collection;
    }
    const kept = this.builders.get(style);
    if (kept !== undefined) {
      this.builders.delete(style);
      this.builders.set(style, kept);
      kept.reset();
      return kept;
    }
    const made = make();
    this.builders.set(style, made);
    if (this.builders.size > this.capacity) {
      const [oldest, builder] = this.builders.entries().next().value as [string, ParagraphBuilder];
      this.builders.delete(oldest);
      builder.delete();
    }
    return made;
  }

  clear(): void {
    for (const builder of this.builders.values()) builder.delete();
    this.builders.clear();
  }
}

/**
 * Paragraphs a render measured, kept for the same paragraph built again later in that render (a text
 * that hugs is laid out to find its size, then drawn in the box it got): the same build is a layout at
 * the new width instead of a second shaping. Keyed by the paragraph's whole build (text, styles,
 * size, line limit) but its width; bounded, the oldest deleted first.
 */
export class KeptParagraphs {
  private readonly kept = new Map<string, { paragraph: Paragraph; width: number }>();
  private readonly capacity: number;

  constructor(capacity = 256) {
    this.capacity = capacity;
  }

  keep(key: string, paragraph: Paragraph, width: number): void {
    const old = this.kept.get(key);
    if (old !== undefined) {
      this.kept.delete(key);
      old.paragraph.delete();
    }
    this.kept.set(key, { paragraph, width });
    if (this.kept.size > this.capacity) {
      const [oldest, entry] = this.kept.entries().next().value as [string, { paragraph: Paragraph }];
      this.kept.delete(oldest);
      entry.paragraph.delete();
    }
  }

  /** The kept paragraph for `key`, now the caller's, laid out at `width`; undefined if none is kept. */
  take(key: string, width: number): Paragraph | undefined {
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    this.kept.delete(key);
    if (entry.width !== width) entry.paragraph.layout(width);
    return entry.paragraph;
  }

  clear(): void {
    for (const { paragraph } of this.kept.values()) paragraph.delete();
    this.kept.clear();
  }
}
