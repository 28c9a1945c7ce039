import type { PreparedImage, RenderWarning, SlotValues } from "../api.ts";
import type { Layer, TemplateDocumentT } from "../document/schema.ts";
import type { Bindings } from "./bindings.ts";
import { isDrawn } from "./drawn-layers.ts";
import { kindOf } from "./painters/registry.ts";
import type { RasterSurface } from "./surface.ts";

/** Frames kept at most (each a copy of the frame's pixels). */
const DEFAULT_KEPT = 2;
/** Bytes of kept pixels at most; a frame larger than half of it (1200x630 above scale 1.66) is not kept. */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;
/** Bottoms seen once and not kept yet: the second render of one is kept, for the third and later. */
const SEEN = 4;

interface KeptEntry {
  key: string;
  /** How many top-level layers the pixels hold (drawing resumes at this index). */
  layers: number;
  pixels: Uint8Array;
  warnings: RenderWarning[];
}

/** What a frame's pixels before its first changing layer depend on, besides those layers. */
export interface BottomContext {
  document: Pick<TemplateDocumentT, "slots" | "locale">;
  /** Names the frame's background (its paint, size and scale), as the engine keys it. */
  background: string;
  path: string;
  layers: readonly Layer[];
  values: SlotValues;
  bindings: Bindings;
  images: ReadonlyMap<string, PreparedImage>;
  fonts: number;
}

/** What a render does with its bottom: resume drawing at `start`, keep the surface before `keepBefore` (-1: not). */
export interface BottomPlan {
  start: number;
  keepBefore: number;
  key: string;
  /** The kept pixels to start from (start > 0). */
  entry: KeptEntry | null;
  /** Where the bottom layers' warnings begin (set by `restore`). */
  warningsFrom: number;
}

const nothing = (): BottomPlan => ({ start: 0, keepBefore: -1, key: "", entry: null, warningsFrom: 0 });

/**
 * The bottom of a frame that is the same from render to render, kept between renders: the longest run
 * of top-level layers, from the first, that show no text and place nothing (not a text kind, not a
 * container, no layout), over the frame's background. Their pixels depend only on their JSON, the
 * values of the slots they bind, the images of the render, the background and the frame's size: a
 * template rendered again with other words over the same photo and panels (the reference card: photo and
 * translucent panel, 1.2 ms of its 2.5 ms draw) starts from a copy of them (0.1-0.2 ms). The bytes are
 * the drawn ones, so a copy and a drawing cannot differ; the warnings those layers gave are replayed.
 * A bottom is kept the second time it is drawn (a photo new on every render is never copied out), at
 * most two frames and 16 MiB; frames with a `{ layer }` mask are always drawn in full.
 */
export class KeptBottoms {
  readonly #max: number;
  #entries: KeptEntry[] = [];
  #seen: string[] = [];
  /** Prepared pixels by identity: the same object is the same pixels (the host's cache hands them out). */
  readonly #ids = new WeakMap<Uint8Array, number>();
  #nextId = 1;

  constructor(max = DEFAULT_KEPT) {
    this.#max = max;
  }

  /** Plans one render's bottom, for a frame of `bytes` bytes of pixels (before its background is drawn). */
  plan(context: BottomContext, bytes: number): BottomPlan {
    if (this.#max <= 0) return nothing();
    const count = keptLayerCount(context.layers);
    if (count === 0) return nothing();
    const key = this.#keyOf(context, count);
    const entry = this.#entries.find((e) => e.key === key && e.pixels.length === bytes);
    if (entry !== undefined) {
      this.#entries = [...this.#entries.filter((e) => e !== entry), entry];
      return { start: entry.layers, keepBefore: -1, key, entry, warningsFrom: 0 };
    }
    const keep = this.#seen.includes(key) && bytes <= MAX_KEPT_BYTES / 2;
    if (!keep) this.#seen = [...this.#seen.filter((k) => k !== key), key].slice(-SEEN);
    return { start: 0, keepBefore: keep ? count : -1, key, entry: null, warningsFrom: 0 };
  }

  /**
   * After the background, before any layer: puts a kept bottom's pixels on `surface` and its warnings
   * in `warnings`.
   */
  restore(plan: BottomPlan, surface: RasterSurface, warnings: RenderWarning[]): void {
    plan.warningsFrom = warnings.length;
    if (plan.entry === null) return;
    surface.pixels().set(plan.entry.pixels);
    warnings.push(...plan.entry.warnings);
  }

  /** Keeps the surface as it is before layer `plan.keepBefore` (called with the surface flushed). */
  keep(plan: BottomPlan, surface: RasterSurface, warnings: readonly RenderWarning[]): void {
    const source = surface.pixels();
    this.#seen = this.#seen.filter((k) => k !== plan.key);
    const bytes = (list: readonly KeptEntry[]) => list.reduce((sum, e) => sum + e.pixels.length, 0);
    let entries = this.#entries;
    while (
      entries.length > 0 &&
      (entries.length >= this.#max || bytes(entries) + source.length > MAX_KEPT_BYTES)
    )
      entries = entries.slice(1);
    this.#entries = [
      ...entries,
      {
        key: plan.key,
        layers: plan.keepBefore,
        pixels: source.slice(),
        warnings: warnings.slice(plan.warningsFrom),
      },
    ];
  }

  clear(): void {
    this.#entries = [];
    this.#seen = [];
  }

  #keyOf(context: BottomContext, count: number): string {
    const { document, values, bindings } = context;
    const layers: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const layer = context.layers[i] as Layer;
      // A bound property's value as given, else the slot's default (or nothing: the design value).
      const bound = Object.values(layer.bind ?? {}).map((slot) => [
        Object.hasOwn(values, slot) ? values[slot] : null,
        document.slots.find((s) => s.name === slot)?.default ?? null,
      ]);
      layers.push(layer, bound, isDrawn(layer, bindings));
    }
    const images = [...context.images]
      .map(([key, image]) => `${key}=${this.#idOf(image.rgba)}:${image.width}x${image.height}`)
      .sort();
    return JSON.stringify([
      context.background,
      context.path,
      context.fonts,
      document.locale ?? null,
      images,
      layers,
    ]);
  }

  #idOf(pixels: Uint8Array): number {
    let id = this.#ids.get(pixels);
    if (id === undefined) {
      id = this.#nextId++;
      this.#ids.set(pixels, id);
    }
    return id;
  }
}

/**
 * How many layers from the first show no text, place nothing and depend on no sibling drawn later:
 * none when any layer of the frame is masked by another layer.
 */
function keptLayerCount(layers: readonly Layer[]): number {
  if (layers.some((l) => (l as { mask?: { layer?: unknown } }).mask?.layer !== undefined)) return 0;
  let count = 0;
  for (const layer of layers) {
    const kind = kindOf(layer);
    if (
      kind.children !== undefined ||
      kind.drawnChildren !== undefined ||
      kind.readableText !== undefined ||
      kind.arrange !== undefined ||
      layer.layout !== undefined
    )
      break;
    count++;
  }
  return count;
}
