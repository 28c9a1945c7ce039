import type { RenderWarning } from "../api.ts";
import type { Layer } from "../document/schema.ts";
import type { RasterSurface } from "./surface.ts";

/** Bytes of kept snapshots at most (three 1200x630 frames at scale 1 take 9 MB). */
const MAX_KEPT_BYTES = 48 * 1024 * 1024;
/** Snapshots kept at most: edits alternating between a few layers each find theirs. */
const MAX_SNAPSHOTS = 3;

interface Snapshot {
  context: string;
  /** JSON of the layers drawn into it (layers 0..k-1). */
  layers: string[];
  pixels: Uint8Array;
  warnings: RenderWarning[];
}

/**
 * Reuse of the unchanged bottom of a frame between renders (opt-in, for an editor that redraws the
 * same frame after each small edit). The engine draws the background and then the top-level layers
 * one after another onto one surface, so the pixels after layers 0..k-1 are a pure function of the
 * frame's context (size, scale, background, values, slots, fonts, images) and of those layers. When a
 * render changes layer k of the previous render's frame, the surface is copied just before layer k
 * is drawn; a later render whose context and layers 0..k-1 are the same starts from that copy and
 * draws from layer k on (the longest such copy is used; a few are kept, the least recently used
 * dropped). The bytes are the drawn ones, so a copy and a drawing cannot differ; the warnings those
 * layers gave are replayed. Frames with a `{ layer }` mask (a layer's pixels then depend on a
 * sibling drawn later) are always drawn in full.
 */
export class LayerPrefix {
  private previous: { context: string; layers: string[] } | null = null;
  private snapshots: Snapshot[] = [];
  /** Buffers of dropped snapshots, reused by the next ones. */
  private spare: Uint8Array[] = [];
  /** Warnings given before the layers (the background's), not part of a snapshot. */
  private base = 0;

  /**
   * Plans one render: where drawing starts (after restoring the kept pixels and warnings) and
   * before which layer the surface is to be kept (-1: none).
   */
  begin(
    context: string,
    layers: readonly Layer[],
    surface: RasterSurface,
    warnings: RenderWarning[],
  ): { start: number; keepBefore: number; strings: string[] } {
    this.base = warnings.length;
    if (layers.some((l) => (l as { mask?: { layer?: unknown } }).mask?.layer !== undefined)) {
      this.clear();
      return { start: 0, keepBefore: -1, strings: [] };
    }
    const strings = layers.map((l) => JSON.stringify(l));
    const prev = this.previous;
    this.previous = { context, layers: strings };
    let changedAt = -1;
    if (prev !== null && prev.context === context) {
      changedAt = 0;
      while (changedAt < strings.length && strings[changedAt] === prev.layers[changedAt]) changedAt++;
      if (changedAt === strings.length && strings.length === prev.layers.length) changedAt = -1;
    }
    const target = surface.pixels();
    // Snapshots that no longer match this frame's bottom layers are of no use again: drop them (their
    // memory is reused for the next ones: no 3 MB allocation, and no garbage, per edit).
    this.snapshots = this.snapshots.filter((s) => {
      const valid =
        s.context === context &&
        s.pixels.length === target.length &&
        s.layers.length <= strings.length &&
        s.layers.every((json, i) => json === strings[i]);
      if (!valid) this.recycle(s.pixels);
      return valid;
    });
    const best = this.snapshots.reduce<Snapshot | null>(
      (a, s) => (a === null || s.layers.length > a.layers.length ? s : a),
      null,
    );
    let start = 0;
    if (best !== null) {
      target.set(best.pixels);
      warnings.push(...best.warnings);
      start = best.layers.length;
      // Most recently used last.
      this.snapshots = [...this.snapshots.filter((s) => s !== best), best];
    }
    const worth = changedAt > start && target.length * (this.snapshots.length + 1) <= MAX_KEPT_BYTES;
    return { start, keepBefore: worth ? changedAt : -1, strings };
  }

  /** Keeps the surface as it is before layer `index` (called with the surface flushed). */
  keep(
    context: string,
    strings: readonly string[],
    index: number,
    surface: RasterSurface,
    warnings: RenderWarning[],
  ): void {
    const source = surface.pixels();
    const i = this.spare.findIndex((b) => b.length === source.length);
    const pixels = i >= 0 ? (this.spare.splice(i, 1)[0] as Uint8Array) : new Uint8Array(source.length);
    pixels.set(source);
    this.snapshots.push({
      context,
      layers: strings.slice(0, index),
      pixels,
      warnings: warnings.slice(this.base),
    });
    if (this.snapshots.length > MAX_SNAPSHOTS) {
      const dropped = this.snapshots.shift();
      if (dropped) this.recycle(dropped.pixels);
    }
  }

  clear(): void {
    this.previous = null;
    this.snapshots = [];
    this.spare = [];
  }

  private recycle(pixels: Uint8Array): void {
    this.spare.push(pixels);
    if (this.spare.length > MAX_SNAPSHOTS) this.spare.shift();
  }
}
