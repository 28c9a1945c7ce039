/** Body of `render.completed`, the only event (spec sections 2 and 6, api-decisions "Callbacks"). */
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
  width: number;
  height: number;
  credits_charged: number;
  metadata: { warnings: unknown[] };
  /** ISO 8601 time the render completed and the event was created. */
  created_at: string;
}
