import { apiBytes, storedKey } from "../api/client.ts";
import { createAccountFontLoader } from "./account-fonts.ts";
import type {
  CanvasKitInitOptions,
  DrawnText,
  Engine,
  EngineModule,
  IconShape,
  ImageRequest,
  PreparedImage,
  RenderWarning,
  SlotValue,
  SlotValues,
  TemplateDocumentT,
} from "./engine-types.ts";
import { createShippedFontLoader, type FontManifest, initialFaces } from "./shipped-fonts.ts";

// Variables, not literals: Vite must leave these to the browser (the server serves them).
const ENGINE_URL = "/editor/engine/pictor-engine.browser.js";
const ENGINE_DIR = "/editor/engine/";
const FONTS_URL = "/editor/fonts.json";

export interface FrameRender {
  width: number;
  height: number;
  /** Copy of the engine's premultiplied RGBA (empty when the request drew through `draw`). */
  pixels: Uint8Array;
  opaque: boolean;
  warnings: RenderWarning[];
  /** Images the server could not prepare (the API would refuse the render with image_fetch_failed). */
  imageErrors: string[];
  /** Time spent in engine.render, ms. */
  drawMs: number;
  /** Where layout put layers (stack children, boxes that hug), by id: the engine's RenderResult.boxes. */
  boxes: Readonly<Record<string, { x: number; y: number; width: number; height: number }>>;
  /** The words of the text layers and where they are drawn (asked with `collectText`), for a PDF. */
  texts?: DrawnText[];
}

export interface RenderRequest {
  frame: string;
  values?: SlotValues;
  scale?: number;
  /** List the words drawn (the engine's `collectText`), as a PDF page lays them over its picture. */
  collectText?: boolean;
  /** Seconds into an animated frame; absent: its poster moment (the engine's RenderOptions.time). */
  time?: number;
  /**
   * Asked once images are ready, just before drawing: a canvas that has already asked for a newer
   * render (the pointer kept moving) skips drawing this one.
   */
  stillWanted?: () => boolean;
  /**
   * Called with the engine's own memory right after drawing (valid only during the call). When
   * given, the result's `pixels` is empty: the caller took what it needed without a copy.
   */
  draw?: (width: number, height: number, pixels: Uint8Array, opaque: boolean) => void;
}

/** A render skipped because a newer one for the same canvas superseded it. */
export class RenderSuperseded extends Error {}

export interface EditorEngine {
  module: EngineModule;
  /** Validates like the API, prepares images on the server, draws. Throws on an invalid document. */
  render(document: unknown, request: RenderRequest): Promise<FrameRender>;
  /** Validated, migrated document or the first errors. */
  validate(document: unknown): { ok: true; document: TemplateDocumentT } | { ok: false; errors: string[] };
}

async function loadFontManifest(): Promise<FontManifest> {
  const res = await fetch(FONTS_URL);
  if (!res.ok) throw new Error(`GET ${FONTS_URL}: HTTP ${res.status}`);
  return (await res.json()) as FontManifest;
}

/** API slot values name assets as `ast_…`; the worker renders them as `asset://ast_…`. */
function normaliseValues(
  document: TemplateDocumentT,
  values: SlotValues | undefined,
): SlotValues | undefined {
  if (!values) return values;
  const out: Record<string, SlotValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const slot = document.slots.find((s) => s.name === name);
    const isAssetId = typeof value === "string" && /^ast_[A-Za-z0-9]+$/.test(value);
    out[name] = slot?.type === "image" && isAssetId ? `asset://${value}` : value;
  }
  return out;
}

/**
 * The icon data of icon layers: lucide-static's icon-nodes.json, the very file the API's render
 * workers read (packages/render-node/src/icons.ts), bundled by Vite as a chunk of its own (served by
 * this server, never fetched from elsewhere) and loaded alongside the engine.
 */
async function loadIconNodes(): Promise<Record<string, IconShape>> {
  const nodes = await import("lucide-static/icon-nodes.json", { with: { type: "json" } });
  return nodes.default as unknown as Record<string, IconShape>;
}

let loading: Promise<EditorEngine> | null = null;
let lastTimings = { validateMs: 0, drawMs: 0 };
let inFlight = 0;

/** Renders started and not yet finished (drawn or failed), for the benchmark: is the editor idle. */
export function rendersInFlight(): number {
  return inFlight;
}

/** Where the last render's time went (validation vs engine draw + copy), for the benchmark. */
export function lastRenderTimings(): { validateMs: number; drawMs: number } {
  return lastTimings;
}

/** One engine per page: canvaskit.wasm and the font set (about 60 MB) are fetched once. */
export function loadEditorEngine(): Promise<EditorEngine> {
  loading ??= create().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** `image` stretched to `width` x `height` by nearest neighbour (rows repeated as whole copies). */
export function enlarged(image: PreparedImage, width: number, height: number): PreparedImage {
  const source = new Uint32Array(image.rgba.buffer, image.rgba.byteOffset, image.width * image.height);
  const out = new Uint32Array(width * height);
  const columns = Uint32Array.from({ length: width }, (_, x) =>
    Math.min(image.width - 1, Math.floor(((x + 0.5) * image.width) / width)),
  );
  let previous = -1;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.floor(((y + 0.5) * image.height) / height));
    const row = y * width;
    if (sy === previous) {
      out.copyWithin(row, row - width, row);
      continue;
    }
    const from = sy * image.width;
    for (let x = 0; x < width; x++) out[row + x] = source[from + (columns[x] ?? 0)] ?? 0;
    previous = sy;
  }
  return { ...image, width, height, rgba: new Uint8Array(out.buffer) };
}

async function create(): Promise<EditorEngine> {
  const [module, manifest, iconNodes] = await Promise.all([
    import(/* @vite-ignore */ ENGINE_URL) as Promise<EngineModule>,
    loadFontManifest(),
    loadIconNodes(),
  ]);
  const fonts = {
    faces: await initialFaces(manifest),
    fallback: manifest.fallback,
    companions: manifest.companions ?? {},
  };
  const options: CanvasKitInitOptions = { locateFile: (file: string) => `${ENGINE_DIR}${file}` };
  const canvasKit = await module.CanvasKitInit(options);
  const icons = module.iconSetFromNodes(iconNodes);
  // The editor redraws one frame after each small edit: start from the unchanged bottom layers.
  const engine: Engine = module.createEngine({ canvasKit, fonts, icons, reuseUnchangedLayers: true });
  const shippedFonts = createShippedFontLoader(module, engine, manifest);
  const withAccountFonts = createAccountFontLoader(module, engine, shippedFonts.shipped);
  const images = new Map<string, Promise<PreparedImage>>();

  function prepared(request: ImageRequest): Promise<PreparedImage> {
    // Per signed-in key: another account in the same tab must not see this one's assets.
    const cacheKey = `${storedKey()}\n${request.key}`;
    let image = images.get(cacheKey);
    if (!image) {
      image = (async () => {
        const res = await apiBytes("/v1/editor/prepare-image", {
          src: request.src,
          width: request.width,
          height: request.height,
          fit: request.fit,
          focal: request.focal,
        });
        const prepared = {
          width: Number(res.headers.get("x-image-width")),
          height: Number(res.headers.get("x-image-height")),
          upscaled: res.headers.get("x-image-upscaled") === "1",
          rgba: new Uint8Array(await res.arrayBuffer()),
        };
        // The server answers at most 16 megapixels: a larger box comes downscaled, and the engine
        // draws exactly the box it asked for.
        return prepared.width === request.width && prepared.height === request.height
          ? prepared
          : enlarged(prepared, request.width, request.height);
      })();
      images.set(cacheKey, image);
      image.catch(() => images.delete(cacheKey));
    }
    return image;
  }

  function validate(document: unknown): ReturnType<EditorEngine["validate"]> {
    const result = module.validateDocument(document);
    if (result.ok) return { ok: true, document: result.document };
    return { ok: false, errors: result.errors.slice(0, 5).map((e) => `${e.path}: ${e.message}`) };
  }

  return {
    module,
    validate,
    async render(input, request) {
      inFlight++;
      try {
        return await renderOnce(input, request);
      } finally {
        inFlight--;
      }
    },
  };

  async function renderOnce(input: unknown, request: RenderRequest): Promise<FrameRender> {
    const validating = performance.now();
    const checked = validate(input);
    if (!checked.ok) throw new Error(checked.errors.join("\n"));
    const document = checked.document;
    let values = normaliseValues(document, request.values);
    if (values !== undefined) {
      const result = module.validateSlotValues(document, values, "values");
      if (!result.ok) throw new Error(result.errors.map((e) => `${e.path}: ${e.message}`).join("\n"));
      values = result.values;
    }
    const validateMs = performance.now() - validating;
    const options = {
      frame: request.frame,
      values,
      scale: request.scale ?? 1,
      ...(request.time === undefined ? {} : { time: request.time }),
    };
    const requests = engine.planImages(document, options);
    const ready = new Map<string, PreparedImage>();
    const imageErrors: string[] = [];
    await Promise.all(
      requests.map(async (r) => {
        try {
          ready.set(r.key, await prepared(r));
        } catch (error) {
          imageErrors.push(`${r.src}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
    );
    // The account's uploaded fonts, as the API's render workers load them. Without them (the list
    // could not be fetched) the text falls back and warns, as a render would if the font were gone.
    await shippedFonts.ready(document);
    const { document: drawn, familyOf } = await withAccountFonts(document).catch(() => ({
      document,
      familyOf: new Map<string, string>(),
    }));
    if (request.stillWanted && !request.stillWanted()) throw new RenderSuperseded("superseded");
    const started = performance.now();
    const result = engine.render(drawn, {
      ...options,
      images: ready,
      ...(request.collectText ? { collectText: true } : {}),
    });
    request.draw?.(result.width, result.height, result.pixels, result.opaque);
    const pixels = request.draw ? new Uint8Array(0) : result.pixels.slice();
    const drawMs = performance.now() - started;
    lastTimings = { validateMs, drawMs };
    return {
      width: result.width,
      height: result.height,
      pixels,
      opaque: result.opaque,
      warnings: result.warnings.map((w) => ({
        ...w,
        message: module.restoreFontFamilyNames(w.message, familyOf),
      })),
      imageErrors,
      drawMs,
      boxes: result.boxes,
      ...(result.texts ? { texts: result.texts } : {}),
    };
  }
}
