/** Body of `render.completed`, the only callback event (docs/webhooks.md). */
export interface CompletionCallback {
  event: "render.completed";
  /** Unique per event; identical on every retry. Deduplicate on it: delivery is at-least-once. */
  event_id: string;
  /** Render job id. */
  id: string;
  status: "completed";
  template: string;
  /** Signed link, valid about one hour. Download now; never store it. */
  url: string;
  /** Permanent link. Store this one. */
  asset_url: string;
  /** Output size in pixels; for a PDF, of the first page's image. */
  width: number;
  height: number;
  /** ceil(scale²) per image, and per page of a PDF. */
  credits_charged: number;
  /** PDF renders only: the number of pages. */
  pages?: number;
  metadata: { warnings: unknown[] };
  /** ISO 8601 time the render completed and the event was created. */
  created_at: string;
}
