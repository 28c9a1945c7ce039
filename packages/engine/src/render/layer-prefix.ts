import type { RenderWarning } from "../api.ts";
import type { Layer } from "../document/schema.ts";
import type { RasterSurface } from "./surface.ts";

/** Snapshots larger than this are not kept (a 4x frame of 2400x2520 is 96 MB). */
const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/**
 * Reuse of the unchanged bottom of a frame between renders (opt-in, for an editor that redraws the
 * same frame after each small edit). The engine draws the background and then the top-level layers
 * one after another onto one surface, so the pixels after layers 0..k-1 are a pure function of the
 * frame's context (size, scale, background, values, slots, fonts, images) and of those layers. When a
 * render changes layer k of the previous render's frame, the surface is copied just before layer k
 * is drawn; the next render whose context and layers 0..k-1 are the same starts from that copy and
 * draws from layer k on. The bytes are the drawn ones, so a copy and a drawing cannot differ; the
 * warnings those layers gave are replayed. Frames with a `{ layer }` mask (a layer's pixels then
 * depend on a sibling drawn later) are always drawn in full.
 */
export class LayerPrefix {
  private previous: { context: string; layers: string[] } | null = null;
  private snapshot: {
    context: string;
    layers: string[];
    pixels: Uint8Array;
    warnings: RenderWarning[];
  } | null = null;
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
      this.previous = null;
      this.snapshot = null;
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
    const snap = this.snapshot;
    const target = surface.pixels();
    if (
      snap !== null &&
      snap.context === context &&
      snap.pixels.length === target.length &&
      snap.layers.length <= strings.length &&
      snap.layers.every((s, i) => s === strings[i])
    ) {
      target.set(snap.pixels);
      warnings.push(...snap.warnings);
      return { start: snap.layers.length, keepBefore: -1, strings };
    }
    this.snapshot = null;
    const worth = changedAt > 0 && target.length <= MAX_SNAPSHOT_BYTES;
    return { start: 0, keepBefore: worth ? changedAt : -1, strings };
  }

  /** Keeps the surface as it is before layer `index` (called with the surface flushed). */
  keep(
    context: string,
    strings: readonly string[],
    index: number,
    surface: RasterSurface,
    warnings: RenderWarning[],
  ) {
    this.snapshot = {
      context,
      layers: strings.slice(0, index),
      pixels: surface.pixels().slice(),
      warnings: warnings.slice(this.base),
    };
  }

  clear(): void {
    this.previous = null;
    this.snapshot = null;
  }
}
