import { takeTypingLatencies } from "../canvas/typing-metrics.ts";
import type { SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import { lastRenderTimings, loadEditorEngine } from "../engine/load-engine.ts";
import { sha256Hex, toBase64 } from "../engine/pixels.ts";

/**
 * `window.__pictor`: what the end-to-end tests and the editor benchmark read from the page. The
 * pixels are the engine's own RGBA (premultiplied, equal to straight RGBA where opaque), not the
 * canvas's, so a comparison with API output is a comparison of engine outputs.
 */
export interface RenderRGBAOptions {
  frame: string;
  values?: SlotValues;
  scale?: number;
  /** Also return the bytes, base64. */
  bytes?: boolean;
  /** Default: the document open in the editor. */
  document?: unknown;
}

export interface PictorHook {
  ready(): Promise<true>;
  renderRGBA(options: RenderRGBAOptions): Promise<{
    sha256: string;
    width: number;
    height: number;
    opaque: boolean;
    warnings: { code: string; slot: string | null; message: string }[];
    imageErrors: string[];
    base64?: string;
  }>;
  currentDocument(): TemplateDocumentT | null;
  /**
   * Applies a layer patch through the editor's own state (as a properties-panel edit does) and
   * resolves when every frame canvas shows the new pixels, with the time that took in ms.
   */
  editLayer(layerId: string, patch: Record<string, unknown>): Promise<number>;
  /** Validation and engine draw time of the most recent render, ms. */
  lastRenderTimings(): { validateMs: number; drawMs: number };
  /** Inline typing: ms from each input event to its pixels on the canvas since the last call. */
  typingLatencies(): number[];
}

interface EditorBridge {
  document(): TemplateDocumentT;
  editLayer(layerId: string, patch: Record<string, unknown>): Promise<number>;
}

let bridge: EditorBridge | null = null;

export function registerEditorBridge(b: EditorBridge | null): void {
  bridge = b;
}

export function installTestHook(): void {
  const hook: PictorHook = {
    async ready() {
      await loadEditorEngine();
      return true;
    },
    async renderRGBA(options) {
      const engine = await loadEditorEngine();
      const document = options.document ?? bridge?.document();
      if (!document) throw new Error("no document open in the editor");
      const out = await engine.render(document, {
        frame: options.frame,
        values: options.values,
        scale: options.scale ?? 1,
      });
      return {
        sha256: await sha256Hex(out.pixels),
        width: out.width,
        height: out.height,
        opaque: out.opaque,
        warnings: out.warnings.map(({ code, slot, message }) => ({ code, slot, message })),
        imageErrors: out.imageErrors,
        ...(options.bytes ? { base64: toBase64(out.pixels) } : {}),
      };
    },
    currentDocument: () => bridge?.document() ?? null,
    lastRenderTimings,
    typingLatencies: takeTypingLatencies,
    editLayer(layerId, patch) {
      if (!bridge) return Promise.reject(new Error("no document open in the editor"));
      return bridge.editLayer(layerId, patch);
    },
  };
  (window as unknown as { __pictor: PictorHook }).__pictor = hook;
}
