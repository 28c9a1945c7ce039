import {
  checkRenderValues,
  createEngine,
  DEFAULT_FPS,
  type Engine,
  type FontFace,
  type FontSet,
  frameTimes,
  type IconSet,
  type ImageRequest,
  isAnimatedFrame,
  type PreparedImage,
  printGeometry,
  type RenderWarning,
  type SlotValues,
  type TemplateDocumentT,
  validateDocument,
  validateSlotValues,
} from "@pictor/engine";
import { loadDeferredFontSet } from "@pictor/fonts";
import type { CanvasKit } from "canvaskit-wasm";
import { encodeAnimatedImage } from "./animated-image.ts";
import { ANIMATED_CONTENT_TYPES, type AnimatedFormat, opaqueOverWhite } from "./animated-output.ts";
import { createCanvasKit, forgetCanvasKit, loadCanvasKit, wasmHeapBuffer } from "./canvaskit.ts";
import { collectGarbage } from "./collect-garbage.ts";
import { type EncodedImage, encodeImage, type OutputFormat, type PngOptimize } from "./encode.ts";
import { ImageFetchError, InvalidDocumentError, InvalidSlotValuesError, RenderError } from "./errors.ts";
import { findFfmpeg, formatUnavailable, type Mp4Stream, startMp4 } from "./ffmpeg.ts";
import { FrameCopies } from "./frame-copies.ts";
import { loadIconSet } from "./icons.ts";
import { PreparedImageCache } from "./image-cache.ts";
import { type NativeWork, runAtOnce } from "./native-work.ts";
import { DEFAULT_PDF_DPI, framePageOptions, PdfAssembler } from "./pdf.ts";
import { DEFAULT_IMAGE_LIMITS, type ImageLimits, prepareImage } from "./prepare-image.ts";
import { trimNativeHeap } from "./trim-native-heap.ts";

/** Returns the bytes of an image source. The host decides what a source may be (file, asset, URL). */
export type ImageLoader = (src: string, slot: string | null) => Promise<Uint8Array>;

export interface NodeRendererOptions {
  /**
   * Default: the shipped set from @pictor/fonts, deferred (loadDeferredFontSet): each family is read
   * and registered the first time a render needs it.
   */
  fonts?: FontSet;
  /** Default: the shipped Lucide icons (lucide-static's icon-nodes.json), loaded once per thread. */
  icons?: IconSet;
  /** Budget for prepared image pixels kept between renders; default 256 MiB. */
  cacheBytes?: number;
  /** The engine's own caches (EngineSetup.cacheBytes): composed images, the last gradient background. */
  engineCacheBytes?: { composedImages?: number; background?: number };
  /**
   * Frames of more than `aboveBytes` of pixels (default 16 MiB: a 2048x2048 frame; the reference
   * card at scale 4 is 48 MB) leave the WebAssembly heap at their peak, which it never gives back.
   * After such a render, once the renderer has been idle for `idleMs` (default 10 s), it moves to a
   * fresh CanvasKit instance and engine (the same fonts and caches, refilled on demand) and the old
   * heap is freed. `false`: never.
   */
  recycle?: { aboveBytes?: number; idleMs?: number } | false;
  /**
   * Once the renderer has been idle for the recycle's `idleMs` (default 10 s) after any render, give
   * the C heap's free pages back to the system (trim-native-heap.ts). Default true.
   */
  trimNativeHeap?: boolean;
  imageLimits?: Partial<ImageLimits>;
  /**
   * Runs the work that leaves the render thread (sharp's decodes and encodes, zlib): default all at
   * once; a background render thread passes oneAtATime (native-work.ts).
   */
  nativeWork?: NativeWork;
  /**
   * Test only: called with the current CanvasKit instance just before each draw. A test breaks the
   * instance here and throws, as a WebAssembly trap does, to prove that the renderer replaces it.
   */
  beforeDraw?: (canvasKit: CanvasKit, document: TemplateDocumentT) => void;
}

export interface NodeRenderOptions {
  /** Default: the document's first frame. */
  frame?: string;
  values?: SlotValues;
  /** 1 to 4; output is round(frame size x scale). */
  scale?: number;
  /** Seconds into an animated frame (default its poster moment); see RenderOptions.time. */
  time?: number;
  format: OutputFormat;
  quality?: number;
  pngCompressionLevel?: number;
  /** PNG encoder effort (encode.ts); default `speed`. */
  pngOptimize?: PngOptimize;
  /**
   * Copy the drawn pixels out and free the engine for the next render at once, instead of holding it
   * until they are encoded: for a host with renders waiting, so a draw overlaps the previous encode
   * (a memcpy of the frame, about 0.1 ms for 1200x630, buys the encode's 4-5 ms of engine time).
   */
  releaseEngineAfterDraw?: boolean;
  loadImage: ImageLoader;
  /**
   * Identity of a source whose bytes never change (an immutable asset id), or null. When given, a
   * cached prepared image is used without loading the source again; otherwise the bytes are loaded
   * and identified by their SHA-256.
   */
  sourceIdentity?: (src: string, slot: string | null) => string | null;
  /**
   * Whose cache entries images identified by their content (SHA-256) go under, e.g. the account: the
   * same bytes rendered by two owners are prepared once each, so no owner can tell from a render's
   * time whether another rendered an image. Absent: one shared scope.
   */
  contentScope?: string;
}

export interface NodeRenderResult extends EncodedImage {
  warnings: RenderWarning[];
  /** Milliseconds this format's encode took (after the draw), for a caller's timing of its renders. */
  encodeMs: number;
}

export interface NodeRenderPdfOptions
  extends Omit<
    NodeRenderOptions,
    "format" | "frame" | "pngCompressionLevel" | "pngOptimize" | "releaseEngineAfterDraw"
  > {
  /** The frames to draw, one page each in this order. Default: the document's first frame. */
  frames?: readonly string[];
  /** Frame pixels per inch, which set the page size; default 96 (1 px = 0.75 pt). */
  dpi?: number;
  /** Absent: pages stored losslessly (Flate). 1 to 100: pages stored as JPEGs of this quality. */
  quality?: number;
  /** Document title; default the document's `name`. */
  title?: string;
  /** The document's creation date; default now. */
  createdAt?: Date;
}

export interface NodeMeasureOptions
  extends Omit<NodeRenderOptions, "format" | "frame" | "releaseEngineAfterDraw"> {
  /** Default: the document's first frame. */
  frames?: readonly string[];
}

export interface NodeRenderAnimationOptions
  extends Omit<NodeRenderOptions, "format" | "pngCompressionLevel" | "releaseEngineAfterDraw"> {
  format: AnimatedFormat;
  /** GIF and WebP: times played, 0 (the default) forever. */
  loop?: number;
  /** WebP: absent, lossless; 1 to 100, lossy. MP4 and GIF ignore it. */
  quality?: number;
  /** MP4: the ffmpeg executable; default findFfmpeg() (PICTOR_FFMPEG, else PATH). */
  ffmpeg?: string | null;
}

export interface NodeRenderAnimationResult {
  bytes: Buffer;
  contentType: string;
  /** Output size (an MP4's is rounded up to even sides). */
  width: number;
  height: number;
  frames: number;
  fps: number;
  /** Seconds: frames / fps. */
  duration: number;
  /** Each distinct warning of any frame once. */
  warnings: RenderWarning[];
}

export interface NodeRenderPdfResult {
  bytes: Uint8Array;
  contentType: "application/pdf";
  /** Pixel size of the first page's image (frame size x scale). */
  width: number;
  height: number;
  pages: number;
  /** The pages' warnings, each distinct one once. */
  warnings: RenderWarning[];
}

export interface NodeRenderer {
  /** `document` is any JSON: it is validated (and migrated) before anything is drawn. */
  render(document: unknown, options: NodeRenderOptions): Promise<NodeRenderResult>;
  /** Draws once and encodes the same pixels in each format (e.g. a PNG master and a WebP preview). */
  renderFormats(
    document: unknown,
    options: Omit<NodeRenderOptions, "format">,
    formats: readonly OutputFormat[],
  ): Promise<NodeRenderResult[]>;
  /**
   * Draws every moment of an animated frame (i / fps for each of its duration x fps frames) and
   * encodes them: an animated GIF or WebP (sharp, from the whole stack of frames) or an MP4 (an
   * ffmpeg child fed frame by frame). `format_unavailable` when MP4 is asked for and no ffmpeg exists.
   */
  renderAnimation(document: unknown, options: NodeRenderAnimationOptions): Promise<NodeRenderAnimationResult>;
  /** Draws each frame and assembles the pages into one PDF (pdf.ts). */
  renderPdf(document: unknown, options: NodeRenderPdfOptions): Promise<NodeRenderPdfResult>;
  /**
   * What a render of these frames would report, without its output: images loaded and prepared as
   * for the render, each frame drawn once as the render draws it (the warnings come from layout and
   * painting), nothing encoded. For preflight reports.
   */
  measure(document: unknown, options: NodeMeasureOptions): Promise<{ warnings: RenderWarning[] }>;
  readonly imageCache: PreparedImageCache;
  /** Adds faces (e.g. an account's uploaded fonts) under family names not used before; see Engine.registerFonts. */
  registerFonts(faces: readonly FontFace[]): void;
  /** Moves to a fresh CanvasKit heap now if a large render left the current one grown (see `recycle`); for tests and hosts. */
  recycleNow(): Promise<boolean>;
  /** How many times the renderer moved to a fresh CanvasKit heap. */
  readonly recycles: number;
  /** How many times an idle renderer gave the C heap's free pages back (see `trimNativeHeap`). */
  readonly trims: number;
  /**
   * How many times a draw failed with an error the engine cannot vouch for (a WebAssembly trap, an
   * allocation failure, any untyped error) and the renderer moved to a fresh CanvasKit instance.
   */
  readonly replacements: number;
  dispose(): void;
}

const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
const DEFAULT_RECYCLE_ABOVE_BYTES = 16 * 1024 * 1024;
const DEFAULT_RECYCLE_IDLE_MS = 10_000;
/** Collections tried for a replaced heap: pauses of 50, 100, ... 1,600 ms, about 3 s in all. */
const COLLECT_ATTEMPTS = 6;

/** Lowercase snake codes are our typed vocabulary (image_invalid, image_out_of_folder...). */
function isTypedError(error: unknown): boolean {
  if (error instanceof RenderError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[a-z]+(_[a-z]+)+$/.test(code);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function createNodeRenderer(options: NodeRendererOptions = {}): Promise<NodeRenderer> {
  const [canvasKit, fonts, icons] = await Promise.all([
    loadCanvasKit(),
    options.fonts ?? loadDeferredFontSet(),
    options.icons ? Promise.resolve(options.icons) : loadIconSet(),
  ]);
  const engineOf = (kit: typeof canvasKit): Engine =>
    createEngine({ canvasKit: kit, fonts, icons, cacheBytes: options.engineCacheBytes ?? {} });
  let kit = canvasKit;
  let engine: Engine = engineOf(kit);
  // Faces a host registered (uploaded fonts), registered again in a fresh engine.
  const registered: FontFace[] = [];
  const recycleAbove =
    options.recycle === false
      ? Number.POSITIVE_INFINITY
      : (options.recycle?.aboveBytes ?? DEFAULT_RECYCLE_ABOVE_BYTES);
  const idleMs = (options.recycle === false ? undefined : options.recycle?.idleMs) ?? DEFAULT_RECYCLE_IDLE_MS;
  const trimming = options.trimNativeHeap !== false;
  /** A render larger than recycleAbove ran on the current heap. */
  let grown = false;
  /** A render (or the renderer's set-up) ran since the C heap was last trimmed. */
  let rendered = true;
  let active = 0;
  let recycles = 0;
  let trimCount = 0;
  /** Heaps of replaced instances not yet collected (collectOldHeap). */
  let retiredHeaps: WeakRef<ArrayBufferLike>[] = [];
  let idleTimer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;
  const began = () => {
    active++;
    rendered = true;
    if (idleTimer !== null) clearTimeout(idleTimer);
    idleTimer = null;
  };
  const ended = () => {
    active--;
    armIdleTimer();
  };
  function armIdleTimer(): void {
    if (active === 0 && !disposed && idleMs > 0 && (grown || trimming)) {
      idleTimer = setTimeout(settleIdle, idleMs);
      idleTimer.unref();
    }
  }
  /** Idle after renders: a grown heap is recycled (which trims once the old heap is collected), else trimmed. */
  function settleIdle(): void {
    if (grown) void recycleNow();
    else trimNow();
  }
  function trimNow(): void {
    if (!trimming || !rendered || disposed) return;
    rendered = false;
    if (trimNativeHeap()) trimCount++;
  }
  const noteSize = (width: number, height: number) => {
    if (width * height * 4 > recycleAbove) grown = true;
  };
  /** A fresh CanvasKit instance and engine, with the faces the host registered. */
  async function freshEngine(): Promise<{ kit: CanvasKit; engine: Engine }> {
    const freshKit = await createCanvasKit();
    const fresh = engineOf(freshKit);
    if (registered.length > 0) fresh.registerFonts(registered);
    return { kit: freshKit, engine: fresh };
  }
  /** Puts a fresh instance in place of the current one. Only while holding the engine (engineFree). */
  function install(fresh: { kit: CanvasKit; engine: Engine }): void {
    const old = { kit, engine };
    retiredHeaps.push(new WeakRef(wasmHeapBuffer(old.kit)));
    engine = fresh.engine;
    kit = fresh.kit;
    grown = false;
    faulted = false;
    discard(old);
    copies.clear();
    cache.dropLarger(recycleAbove / 4);
  }
  /** Frees an instance's engine and lets its heap be collected. */
  function discard(instance: { kit: CanvasKit; engine: Engine }): void {
    try {
      instance.engine.dispose();
    } catch {
      // A trapped instance may fail to free its objects one by one; it is dropped whole below.
    }
    forgetCanvasKit(instance.kit);
  }
  /**
   * The old heap is a WebAssembly.Memory: freed only when V8 collects it, and an idle thread
   * allocates nothing that would start a collection, so it stayed resident (78 MB after a scale-4
   * render). A collection queues canvaskit's FinalizationRegistry clean-ups, which hold the old
   * instance until they have run, so one collection is not enough; nor were two a task apart on a
   * loaded machine (one process in four still held the old 80 MB heap 5 s later: the clean-ups had
   * not run before the second). So collect, a task later look whether the old heap is gone (a weak
   * reference to its buffer), and collect again with a growing pause until it is, at most
   * `COLLECT_ATTEMPTS` times. Then the C heap is trimmed: the old instance's native buffers are free.
   */
  function collectOldHeap(): void {
    let attempt = 0;
    const look = () => {
      // Read in a task of its own: a weak reference read keeps its target alive until the task ends.
      retiredHeaps = retiredHeaps.filter((heap) => heap.deref() !== undefined);
      if (retiredHeaps.length === 0 || attempt >= COLLECT_ATTEMPTS || disposed) {
        trimNow();
        return;
      }
      const pause = 50 * 2 ** attempt++;
      setTimeout(() => {
        collectGarbage();
        setTimeout(look, pause).unref();
      }, pause).unref();
    };
    setTimeout(look, 0).unref();
  }
  let recycling: Promise<boolean> | null = null;
  function recycleNow(): Promise<boolean> {
    recycling ??= (async () => {
      if (!grown || disposed) return false;
      const fresh = await freshEngine();
      // Swapped when the engine is free: a draw in progress finishes on the old one. By then a failed
      // draw may have replaced the grown instance already (replaceIfFaulted): the fresh one is not
      // needed, and installing it would swap twice.
      const swap = engineFree.then(() => {
        if (!grown || disposed) {
          discard(fresh);
          return false;
        }
        install(fresh);
        recycles++;
        return true;
      });
      engineFree = swap.catch(() => undefined);
      return await swap;
    })().finally(() => {
      recycling = null;
      collectOldHeap();
    });
    return recycling;
  }
  /**
   * Set when a draw failed in a way the engine cannot vouch for: a WebAssembly trap unwinds
   * CanvasKit's C++ stack without its destructors, so the instance keeps what the failed draw
   * allocated (an 8000x8000 shadowed text left its heap unable to hold even a 1200x630 surface)
   * and may be inconsistent. No later render may draw on it.
   */
  let faulted = false;
  let replacements = 0;
  /** Runs one draw, marking the instance faulted if the draw fails with an untyped error. */
  function guardedDraw<T>(document: TemplateDocumentT, draw: (engine: Engine) => T): T {
    try {
      options.beforeDraw?.(kit, document);
      return draw(engine);
    } catch (error) {
      if (!isTypedError(error)) faulted = true;
      throw error;
    }
  }
  /**
   * Replaces a faulted instance. Only while holding the engine: right after the failed draw (so the
   * broken heap is freed at once) and again before each draw while a replacement has not succeeded.
   */
  async function replaceIfFaulted(): Promise<void> {
    if (!faulted || disposed) return;
    install(await freshEngine());
    replacements++;
    collectOldHeap();
  }
  /** What engineFree becomes after a draw turn: free once `released` settles, and healthy. */
  function afterTurn(released: Promise<unknown>): Promise<unknown> {
    return released.then(
      () => undefined,
      () => replaceIfFaulted().catch(() => undefined),
    );
  }
  const cache = new PreparedImageCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const limits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...options.imageLimits };
  const native = options.nativeWork ?? runAtOnce;
  // Validation is per document object: a host that keeps a published version in memory pays once.
  const validated = new WeakMap<object, TemplateDocumentT>();
  // One engine draws one frame at a time and its pixels stay valid only until the next render; the
  // encoder reads them in place, so the engine is held until they are encoded, unless the render
  // asks to copy them out (releaseEngineAfterDraw). Image loading for the next render overlaps either
  // way (worker threads give parallelism across renders).
  let engineFree: Promise<unknown> = Promise.resolve();
  const copies = new FrameCopies();

  function checkDocument(input: unknown): TemplateDocumentT {
    if (typeof input === "object" && input !== null) {
      const known = validated.get(input);
      if (known) return known;
    }
    const result = validateDocument(input);
    if (!result.ok) throw new InvalidDocumentError(result.errors);
    if (typeof input === "object" && input !== null) validated.set(input, result.document);
    return result.document;
  }

  async function prepared(
    request: ImageRequest,
    render: Omit<NodeRenderOptions, "format">,
  ): Promise<[string, PreparedImage]> {
    const origin = { slot: request.slot, src: request.src };
    const identity = render.sourceIdentity?.(request.src, request.slot) ?? null;
    if (identity !== null) {
      const hit = cache.peek(PreparedImageCache.key(`id:${identity}`, request));
      if (hit) return [request.key, hit];
    }
    let bytes: Uint8Array;
    try {
      bytes = await render.loadImage(request.src, request.slot);
    } catch (error) {
      if (isTypedError(error)) throw error;
      throw new ImageFetchError(messageOf(error), origin, { cause: error });
    }
    const sourceId =
      identity !== null
        ? `id:${identity}`
        : `${render.contentScope ?? ""}|${PreparedImageCache.contentId(bytes)}`;
    const image = await cache.getOrPrepare(PreparedImageCache.key(sourceId, request), () =>
      native.run(() => prepareImage(bytes, request, origin, limits)),
    );
    return [request.key, image];
  }

  /** Draws once the engine is free, then encodes; the engine is free again after the draw or the encode. */
  function drawAndEncode(
    document: TemplateDocumentT,
    render: Omit<NodeRenderOptions, "format">,
    formats: readonly OutputFormat[],
    values: SlotValues | undefined,
    images: ReadonlyMap<string, PreparedImage>,
  ): Promise<NodeRenderResult[]> {
    const turn = engineFree.then(async () => {
      await replaceIfFaulted();
      const drawn = guardedDraw(document, (engine) =>
        engine.render(document, {
          frame: render.frame,
          values,
          scale: render.scale,
          time: render.time,
          images,
        }),
      );
      noteSize(drawn.width, drawn.height);
      // A `size` PNG takes its encoder hundreds of milliseconds: the engine is not held for that. An
      // opaque frame is copied out anyway, packed as RGB (frame-copies.ts): the encoder needs no alpha,
      // and dropping it in the copy costs less than libvips dropping it, once for every format.
      const release = render.releaseEngineAfterDraw || render.pngOptimize === "size" || drawn.opaque;
      const copy = release ? copies.take(drawn) : null;
      const frame = copy ?? drawn;
      // Encoders run on libuv threads, so several formats of the same pixels encode in parallel.
      const encodes = formats.map(async (format) => {
        const started = performance.now();
        const image = await native.run(() =>
          encodeImage(frame, {
            format,
            quality: render.quality,
            pngCompressionLevel: render.pngCompressionLevel,
            ...(render.pngOptimize ? { pngOptimize: render.pngOptimize } : {}),
          }),
        );
        return { ...image, warnings: drawn.warnings, encodeMs: performance.now() - started };
      });
      const encoded = Promise.all(encodes);
      // Given back once every encode has settled, not at the first failure: another may still read it.
      if (copy) void Promise.allSettled(encodes).then(() => copies.give(copy));
      return { encoded, inPlace: copy === null };
    });
    engineFree = afterTurn(turn.then(({ encoded, inPlace }) => (inPlace ? encoded : undefined)));
    return turn.then(({ encoded }) => encoded);
  }

  async function renderPdf(input: unknown, options: NodeRenderPdfOptions): Promise<NodeRenderPdfResult> {
    began();
    try {
      return await renderPdfNow(input, options);
    } finally {
      ended();
    }
  }

  async function renderPdfNow(input: unknown, options: NodeRenderPdfOptions): Promise<NodeRenderPdfResult> {
    const document = checkDocument(input);
    const names = options.frames ?? [document.frames[0]?.name ?? ""];
    const values = options.values === undefined ? undefined : checkedValues(document, options.values, names);
    if (names.length === 0) throw new RangeError("a PDF needs at least one frame");
    const dpi = options.dpi ?? DEFAULT_PDF_DPI;
    const print = document.frames.find((f) => f.name === names[0])?.print;
    const pdf = new PdfAssembler(
      {
        title: options.title ?? print?.title ?? document.name,
        ...(print?.author === undefined ? {} : { author: print.author }),
        createdAt: options.createdAt ?? new Date(),
      },
      native,
    );
    const warnings = new Map<string, RenderWarning>();
    let first: { width: number; height: number } | null = null;
    for (const name of names) {
      const frame = document.frames.find((f) => f.name === name);
      if (!frame) throw new RangeError(`the document has no frame '${name}'`);
      const plan = { frame: name, values, scale: options.scale };
      const images = new Map(
        await Promise.all(engine.planImages(document, plan).map((r) => prepared(r, options))),
      );
      // The page reads the pixels in place, so the engine is held until it has them.
      const turn = engineFree.then(async () => {
        await replaceIfFaulted();
        const drawn = guardedDraw(document, (engine) =>
          engine.render(document, { ...plan, images, collectText: true }),
        );
        noteSize(drawn.width, drawn.height);
        await pdf.addPage(drawn, {
          ...framePageOptions(frame, dpi, printGeometry),
          texts: drawn.texts ?? [],
          ...(options.quality === undefined ? {} : { quality: options.quality }),
        });
        return drawn;
      });
      engineFree = afterTurn(turn);
      const drawn = await turn;
      first ??= { width: drawn.width, height: drawn.height };
      for (const w of drawn.warnings) warnings.set(`${w.code}\u0000${w.slot}\u0000${w.message}`, w);
    }
    const bytes = await pdf.save();
    return {
      bytes,
      contentType: "application/pdf",
      width: first?.width ?? 0,
      height: first?.height ?? 0,
      pages: pdf.pageCount,
      warnings: [...warnings.values()],
    };
  }

  async function renderAnimation(
    input: unknown,
    options: NodeRenderAnimationOptions,
  ): Promise<NodeRenderAnimationResult> {
    began();
    try {
      return await renderAnimationNow(input, options);
    } finally {
      ended();
    }
  }

  async function renderAnimationNow(
    input: unknown,
    options: NodeRenderAnimationOptions,
  ): Promise<NodeRenderAnimationResult> {
    const document = checkDocument(input);
    const ffmpeg = options.format === "mp4" ? (options.ffmpeg ?? findFfmpeg()) : null;
    if (options.format === "mp4" && ffmpeg === null) throw formatUnavailable();
    const values =
      options.values === undefined ? undefined : checkedValues(document, options.values, [options.frame]);
    const frame =
      options.frame === undefined
        ? document.frames[0]
        : document.frames.find((f) => f.name === options.frame);
    if (frame === undefined)
      throw new RenderError("invalid_request", `the document has no frame '${options.frame}'`);
    if (!isAnimatedFrame(frame)) {
      throw new RenderError(
        "invalid_request",
        `frame '${frame.name}' is not animated (give it a duration) and cannot be drawn as ${options.format}`,
      );
    }
    const times = frameTimes(frame);
    const fps = frame.fps ?? DEFAULT_FPS;
    const warnings = new Map<string, RenderWarning>();
    let size: { width: number; height: number } | null = null;
    let stack: Uint8Array | null = null;
    let premultiplied = false;
    let mp4: Mp4Stream | null = null;
    let frameBuffer: Uint8Array | null = null;
    try {
      for (const [index, time] of times.entries()) {
        const plan = { frame: frame.name, values, scale: options.scale, time };
        const images = new Map(
          await Promise.all(engine.planImages(document, plan).map((r) => prepared(r, options))),
        );
        // The frame is copied out of the engine's memory before the engine is free again.
        const turn = engineFree.then(async () => {
          await replaceIfFaulted();
          const drawn = guardedDraw(document, (engine) => engine.render(document, { ...plan, images }));
          noteSize(drawn.width, drawn.height);
          const bytes = drawn.width * drawn.height * 4;
          let rgba: Uint8Array | null = null;
          if (options.format === "mp4") {
            // The previous frame has been taken by ffmpeg (its write resolved) before this turn.
            frameBuffer ??= new Uint8Array(bytes);
            rgba = opaqueOverWhite(drawn.pixels, drawn.opaque, frameBuffer);
          } else {
            stack ??= new Uint8Array(bytes * times.length);
            stack.set(drawn.pixels, index * bytes);
            if (!drawn.opaque) premultiplied = true;
          }
          return { width: drawn.width, height: drawn.height, warnings: drawn.warnings, rgba };
        });
        engineFree = afterTurn(turn);
        const drawn = await turn;
        size ??= { width: drawn.width, height: drawn.height };
        for (const w of drawn.warnings) warnings.set(`${w.code}\u0000${w.slot}\u0000${w.message}`, w);
        if (drawn.rgba !== null && ffmpeg !== null) {
          mp4 ??= await startMp4(ffmpeg, { ...size, fps });
          await mp4.write(drawn.rgba);
        }
      }
      if (size === null) throw new RangeError("an animated frame has at least one frame");
      let bytes: Buffer;
      let width = size.width;
      let height = size.height;
      if (mp4 !== null) {
        const finished: Mp4Stream = mp4;
        mp4 = null;
        bytes = await finished.finish();
        width = finished.width;
        height = finished.height;
      } else {
        const frames = { ...size, frames: times.length, premultiplied };
        bytes = await native.run(() =>
          encodeAnimatedImage(stack as unknown as Uint8Array, frames, {
            format: options.format === "gif" ? "gif" : "webp",
            fps,
            ...(options.loop === undefined ? {} : { loop: options.loop }),
            ...(options.quality === undefined ? {} : { quality: options.quality }),
          }),
        );
      }
      return {
        bytes,
        contentType: ANIMATED_CONTENT_TYPES[options.format],
        width,
        height,
        frames: times.length,
        fps,
        duration: times.length / fps,
        warnings: [...warnings.values()],
      };
    } finally {
      await (mp4 as Mp4Stream | null)?.abort();
    }
  }

  async function renderFormats(
    input: unknown,
    render: Omit<NodeRenderOptions, "format">,
    formats: readonly OutputFormat[],
  ): Promise<NodeRenderResult[]> {
    began();
    try {
      return await renderFormatsNow(input, render, formats);
    } finally {
      ended();
    }
  }

  async function renderFormatsNow(
    input: unknown,
    render: Omit<NodeRenderOptions, "format">,
    formats: readonly OutputFormat[],
  ): Promise<NodeRenderResult[]> {
    const document = checkDocument(input);
    const values =
      render.values === undefined ? undefined : checkedValues(document, render.values, [render.frame]);
    const requests = engine.planImages(document, {
      frame: render.frame,
      values,
      scale: render.scale,
      time: render.time,
    });
    const images = new Map(await Promise.all(requests.map((r) => prepared(r, render))));
    return drawAndEncode(document, render, formats, values, images);
  }

  async function measure(
    input: unknown,
    options: NodeMeasureOptions,
  ): Promise<{ warnings: RenderWarning[] }> {
    began();
    try {
      const document = checkDocument(input);
      const names = options.frames ?? [document.frames[0]?.name ?? ""];
      const values =
        options.values === undefined ? undefined : checkedValues(document, options.values, names);
      const warnings: RenderWarning[] = [];
      for (const name of names) {
        const plan = { frame: name, values, scale: options.scale };
        const images = new Map(
          await Promise.all(engine.planImages(document, plan).map((r) => prepared(r, options))),
        );
        const turn = engineFree.then(async () => {
          await replaceIfFaulted();
          const drawn = guardedDraw(document, (engine) => engine.render(document, { ...plan, images }));
          noteSize(drawn.width, drawn.height);
          return drawn.warnings;
        });
        engineFree = afterTurn(turn);
        warnings.push(...(await turn));
      }
      return { warnings };
    } finally {
      ended();
    }
  }

  // Starting a server leaves free blocks in the C heap as renders do: about one start in three held
  // 12-15 MB more until the first trim. So a fresh renderer trims once it has idled too.
  armIdleTimer();
  return {
    imageCache: cache,

    renderFormats,

    renderPdf,

    renderAnimation,

    measure,

    async render(input, { format, ...render }) {
      const [output] = await renderFormats(input, render, [format]);
      if (!output) throw new Error("no output encoded");
      return output;
    },

    registerFonts(faces) {
      engine.registerFonts(faces);
      registered.push(...faces);
    },

    recycleNow,

    get recycles() {
      return recycles;
    },
    get trims() {
      return trimCount;
    },
    get replacements() {
      return replacements;
    },

    dispose() {
      disposed = true;
      if (idleTimer !== null) clearTimeout(idleTimer);
      engine.dispose();
    },
  };
}

/**
 * Slot values checked as the API checks them before a charge: their types and shapes, then what the
 * frames' layers refuse for their shape (a list longer than a chart shows, a progress range a bound
 * number empties), as `invalid_request`. Values a code cannot encode are left to the drawing, which
 * refuses them with `value_not_encodable`.
 */
function checkedValues(
  document: TemplateDocumentT,
  given: unknown,
  frames: readonly (string | undefined)[],
): SlotValues {
  const checked = validateSlotValues(document, given, "values");
  if (!checked.ok) throw new InvalidSlotValuesError(checked.errors);
  const refused = frames
    .flatMap((frame) => checkRenderValues(document, frame, checked.values))
    .filter((error) => error.kind === "invalid");
  if (refused.length > 0) throw new InvalidSlotValuesError(refused);
  return checked.values;
}
