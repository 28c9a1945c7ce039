import type { SlotValue, TemplateDocumentT } from "../domain/document.ts";

/** A warning as preflight reports it: with its layer and the measured figures behind it. */
export interface MeasuredWarning {
  code: string;
  slot: string | null;
  layer: string | null;
  message: string;
  details?: Record<string, number | string | string[]>;
}

/** A render to measure: what a render task draws, without an output to write. */
export interface MeasureRequest {
  accountId: string;
  /** The pinned template version, e.g. `tpl_…@3` (render threads keep documents under it). */
  documentKey: string;
  document: TemplateDocumentT;
  /** The frames drawn (one for an image, each page's for a PDF). */
  frames: string[];
  values: Record<string, SlotValue>;
  scale: number;
}

export type MeasureOutcome =
  | { ok: true; warnings: MeasuredWarning[] }
  | {
      ok: false;
      code: "image_fetch_failed" | "image_invalid" | "internal_error" | "unavailable";
      message: string;
    };

/**
 * Draws a render on a render thread as it would be drawn, images fetched and prepared the same way,
 * and answers its warnings; nothing is encoded, stored or charged (preflight). Bounded like renders:
 * at most so many at once, `unavailable` beyond.
 */
export interface RenderMeasurer {
  measure(request: MeasureRequest): Promise<MeasureOutcome>;
}
