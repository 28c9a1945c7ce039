import type { CanvasKit } from "canvaskit-wasm";
import { documentAt } from "../animation/timeline.ts";
import type {
  Engine,
  FontSet,
  IconSet,
  PreparedImage,
  RenderInput,
  RenderOptions,
  RenderResult,
  RenderWarning,
} from "../api.ts";
import { isImagePattern } from "../document/common.ts";
import type { TemplateDocumentT } from "../document/schema.ts";
import { Bindings } from "./bindings.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";
import { FontLibrary } from "./fonts.ts";
import { planFrameImages } from "./frame-images.ts";
import { checkScale, findFrame, toDevice } from "./geometry.ts";
import { fillClipWithPaint } from "./gradient-bands.ts";
import { GradientGlyphs } from "./gradient-glyphs.ts";
import { IconLibrary } from "./icons.ts";
import { imagePatternIdentity } from "./image-pattern.ts";
import { ComposedImages } from "./image-pixels.ts";
import { KeptBottoms } from "./kept-bottom.ts";
import { LayerPrefix } from "./layer-prefix.ts";
import { LayerRasters } from "./layer-rasters.ts";
import { paintLayers, paintLayersFrom } from "./layers.ts";
import { isOpaquePaint, resolvePaint } from "./paint.ts";
import { PixelShadows } from "./pixel-shadows.ts";
import { isOpaque } from "./premultiply.ts";
import { LastBackground, RasterSurface } from "./surface.ts";
import { ParagraphFactory } from "./text-layout.ts";
import { backgroundUnderlay, type Underlay, underlaysOf } from "./underlay.ts";

const DEFAULT_BACKGROUND = "#FFFFFF";
const NO_VALUES = Object.freeze({});
const TRANSPARENT = Float32Array.of(0, 0, 0, 0);
const NO_IMAGES: ReadonlyMap<string, PreparedImage> = new Map();

export interface EngineSetup {
  /** A CanvasKit instance the host loaded (same .wasm in Node and the browser). */
  canvasKit: CanvasKit;
  fonts: FontSet;
  /**
   * Icon data for icon layers (the same parsed Lucide `icon-nodes.json` in every host, see
   * `iconSetFromNodes`). Without it, rendering a document with an icon layer fails (`icon_unavailable`).
   */
  icons?: IconSet;
  /**
   * Bytes the engine keeps between renders: composed image pixels (default 32 MiB) and the last
   * gradient background (default 16 MiB; larger ones are drawn every time).
   */
  cacheBytes?: { composedImages?: number; background?: number; layerRasters?: number };
  /**
   * Start a render from the kept pixels of the unchanged bottom layers of the previous render of the
   * same frame (render/layer-prefix.ts): for an editor redrawing one frame after each small edit.
   * Same bytes either way; off by default (a render service draws different documents in turn).
   */
  reuseUnchangedLayers?: boolean;
  /**
   * Paragraphs of design text (no slot or list value in it) kept between renders, shaped once:
   * default 128, the least recently used dropped; 0 keeps none (render/text-layout.ts).
   */
  keptParagraphs?: number;
  /**
   * Frames whose unchanging bottom layers (no text, no layout: photos, panels, shapes) are kept
   * between renders and copied instead of drawn again (render/kept-bottom.ts): default 2; 0 keeps none.
   * Same bytes either way.
   */
  keptBottoms?: number;
}

/**
 * The renderer. Fonts are registered and the surface allocated once per engine and reused by every
 * render (architecture.md); one engine draws one frame at a time.
 */
export function createEngine({
  canvasKit,
  fonts,
  icons,
  cacheBytes,
  reuseUnchangedLayers,
  keptParagraphs,
  keptBottoms,
}: EngineSetup): Engine {
  const ck = canvasKit;
  const library = new FontLibrary(ck, fonts);
  const paragraphs = new ParagraphFactory(ck, library, keptParagraphs);
  const iconLibrary = new IconLibrary(ck, icons ?? null);
  const surface = new RasterSurface(ck);
  const composedImages = new ComposedImages(ck, cacheBytes?.composedImages);
  const gradientBackgrounds = new LastBackground(cacheBytes?.background);
  const layerRasters = new LayerRasters(ck, cacheBytes?.layerRasters);
  const pixelShadows = new PixelShadows(ck);
  const gradientGlyphs = new GradientGlyphs(ck);
  const paint = new ck.Paint();
  const prefix = reuseUnchangedLayers === true ? new LayerPrefix() : null;
  const bottoms = new KeptBottoms(keptBottoms);
  let fontGeneration = 0;
  let disposed = false;

  const assertLive = () => {
    if (disposed) throw new Error("engine was disposed");
  };

  return {
    planImages(designed: TemplateDocumentT, options: RenderOptions) {
      assertLive();
      const scale = checkScale(options.scale);
      const moment = documentAt(designed, options.frame, options.time, options.values ?? NO_VALUES);
      const { document } = moment;
      const { frame, path } = findFrame(document, options.frame);
      const bindings = new Bindings(document, moment.values, null);
      return planFrameImages(frame, path, bindings, scale);
    },

    render(designed: TemplateDocumentT, input: RenderInput): RenderResult {
      assertLive();
      layerRasters.beginRender();
      const scale = checkScale(input.scale);
      // An animated frame is drawn as the still it is at the moment asked (by default its poster).
      const moment = documentAt(designed, input.frame, input.time, input.values ?? NO_VALUES);
      const { document } = moment;
      const { frame, path } = findFrame(document, input.frame);
      const warnings: RenderWarning[] = [];
      const bindings = new Bindings(document, moment.values, warnings);
      const background = resolvePaint(
        bindings,
        frame.bind,
        "background",
        frame.background ?? DEFAULT_BACKGROUND,
        `${path}.background`,
        null,
      );
      const width = toDevice(frame.width, scale);
      const height = toDevice(frame.height, scale);
      const target = surface.acquire(width, height);
      const canvas = target.getCanvas();
      const backgroundOpaque = isOpaquePaint(background.value, background.path);
      const paintSource = { ck, images: input.images ?? NO_IMAGES, scale };
      const backgroundPixels = isImagePattern(background.value)
        ? `|${imagePatternIdentity(paintSource, background.value)}`
        : "";
      const backgroundKey = `${JSON.stringify(background.value)}|${width}x${height}@${scale}${backgroundPixels}`;
      const frameRect = { left: 0, top: 0, width, height };
      let underlay: Omit<Underlay, "dirty"> | null = null;
      // The frame's unchanging bottom layers, when kept, are copied over the whole surface.
      const bottom =
        prefix !== null || input.collectText === true
          ? null
          : bottoms.plan(
              {
                document,
                background: backgroundKey,
                path,
                layers: frame.layers,
                values: moment.values,
                bindings,
                images: paintSource.images,
                fonts: fontGeneration,
              },
              width * height * 4,
            );
      if (typeof background.value === "string") {
        const color = parseHexColor(background.value, background.path);
        if ((bottom?.entry ?? null) === null) canvas.clear(color);
        underlay = backgroundUnderlay(backgroundKey, frameRect, { color });
      } else {
        // A gradient background is drawn over a transparent surface, in template px like every layer;
        // the frame's last one is kept and copied back (the same bytes) while it does not change.
        const gradient = background.value;
        gradientBackgrounds.draw(surface, backgroundKey, () => {
          canvas.clear(TRANSPARENT);
          canvas.save();
          canvas.scale(scale, scale);
          const frameBox = { x: 0, y: 0, width: frame.width, height: frame.height };
          fillClipWithPaint(paintSource, canvas, paint, gradient, background.path, frameBox);
          canvas.restore();
        });
        const kept = gradientBackgrounds.pixelsOf(backgroundKey);
        if (kept !== null) underlay = backgroundUnderlay(backgroundKey, frameRect, { pixels: kept });
      }
      const saved = canvas.save();
      canvas.scale(scale, scale);
      const ctx: PaintContext = {
        ck,
        canvas,
        fonts: library,
        paragraphs,
        bindings,
        warnings,
        images: input.images ?? NO_IMAGES,
        icons: iconLibrary,
        composedImages,
        layerRasters,
        pixelShadows,
        gradientGlyphs,
        scale,
        paint,
        mask: null,
        texts: input.collectText === true ? [] : null,
        boxes: {},
        measured: new Map(),
        paintLayers: (layers, parentPath, paths) => paintLayers(ctx, layers, parentPath, null, paths),
      };
      // What lies under each top-level layer: the background, and where the layers before may have drawn.
      const underlays =
        underlay === null
          ? null
          : underlaysOf(underlay, frame.layers, bindings, { sx: scale, sy: scale, tx: 0, ty: 0 });
      // Draws the layers from `start` on, keeping the surface (flushed) before layer `keepBefore`.
      const paintKeeping = (start: number, keepBefore: number, keep: () => void) =>
        paintLayersFrom(
          ctx,
          frame.layers,
          path,
          start,
          (index) => {
            if (index !== keepBefore) return;
            target.flush();
            keep();
          },
          underlays,
        );
      try {
        if (prefix === null) {
          const plan = bottom;
          if (plan !== null) bottoms.restore(plan, surface, warnings);
          if (plan === null || (plan.start === 0 && plan.keepBefore < 0))
            paintLayers(ctx, frame.layers, path, underlays);
          else paintKeeping(plan.start, plan.keepBefore, () => bottoms.keep(plan, surface, warnings));
        } else {
          const images = input.images ?? NO_IMAGES;
          const context = JSON.stringify([
            path,
            frame.name,
            width,
            height,
            scale,
            frame.background ?? null,
            frame.bind ?? null,
            document.slots,
            moment.values,
            fontGeneration,
            [...images.keys()].sort(),
          ]);
          const plan = prefix.begin(context, frame.layers, surface, warnings);
          paintKeeping(plan.start, plan.keepBefore, () =>
            prefix.keep(context, plan.strings, plan.keepBefore, surface, warnings),
          );
        }
      } catch (error) {
        prefix?.clear();
        bottoms.clear();
        throw error;
      } finally {
        canvas.restoreToCount(saved);
        paragraphs.endRender();
      }
      target.flush();
      const pixels = surface.pixels();
      // Source-over drawing never lowers alpha, so an opaque background means an opaque image.
      const opaque = backgroundOpaque || isOpaque(pixels);
      const { boxes } = ctx;
      const texts = ctx.texts === null ? {} : { texts: ctx.texts };
      return {
        width,
        height,
        pixels,
        premultiplied: true,
        opaque,
        warnings: oncePerSlot(warnings),
        boxes,
        ...texts,
      };
    },

    registerFonts(faces) {
      assertLive();
      library.addFaces(faces);
      fontGeneration++;
      bottoms.clear();
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      surface.release();
      composedImages.dispose();
      layerRasters.dispose();
      pixelShadows.dispose();
      gradientGlyphs.dispose();
      bottoms.clear();
      paint.delete();
      paragraphs.dispose();
      library.dispose();
      iconLibrary.dispose();
    },
  };
}

/**
 * Each (code, slot) once, the first kept: a slot bound on several layers (a headline drawn in two
 * places, a colour used by five shapes) is one warning for the caller, who names slots, not layers.
 * Warnings about unbound properties (slot null) stay one per layer.
 */
function oncePerSlot(warnings: RenderWarning[]): RenderWarning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = w.slot === null ? `${w.code}\u0000layer\u0000${w.layer ?? ""}` : `${w.code}\u0000${w.slot}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
