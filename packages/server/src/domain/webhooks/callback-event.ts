import type { CompletionCallback } from "@pictor/client";
import { newId } from "../ids.ts";

/** What a completed render must provide for its callback (the completion callback body). */
export interface CompletedRenderForCallback {
  id: string;
  template: string;
  /** The signed, short-lived output link (the body's `url`). */
  output_url: string;
  asset_url: string;
  width: number;
  height: number;
  credits_charged: number;
  /** A PDF's page count (absent for images, whose callback body is as before). */
  pages?: number;
  warnings: readonly unknown[];
  /** Completion time, epoch milliseconds. Becomes the body's `created_at`. */
  completed_at: number;
}

export interface CallbackEvent {
  event_id: string;
  /** The exact bytes every attempt sends and the signature covers; never re-serialised. */
  body: string;
}

/** `evt_` + 128 random bits. */
export function newEventId(): string {
  return newId("evt");
}

function requireInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`callback field ${name} must be a non-negative integer, got ${value}`);
  }
  return value;
}

/**
 * Fixes the callback body once: exactly the documented fields plus `event`,
 * `event_id`, `template` and `created_at`, in a stable key order. The caller stores `body` as is;
 * the signature and every retry use these bytes.
 */
export function buildCallbackEvent(
  render: CompletedRenderForCallback,
  eventId = newEventId(),
): CallbackEvent {
  const payload: CompletionCallback = {
    event: "render.completed",
    event_id: eventId,
    id: render.id,
    status: "completed",
    template: render.template,
    url: render.output_url,
    asset_url: render.asset_url,
    width: requireInteger("width", render.width),
    height: requireInteger("height", render.height),
    credits_charged: requireInteger("credits_charged", render.credits_charged),
    ...(render.pages === undefined ? {} : { pages: requireInteger("pages", render.pages) }),
    metadata: { warnings: [...render.warnings] },
    created_at: new Date(render.completed_at).toISOString(),
  };
  return { event_id: eventId, body: JSON.stringify(payload) };
}
