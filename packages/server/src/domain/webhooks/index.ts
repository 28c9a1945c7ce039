export type { CallbackEvent, CompletedRenderForCallback } from "./callback-event.ts";
export { buildCallbackEvent, newEventId } from "./callback-event.ts";
export type { DeliveryOutcome, DeliveryVerdict } from "./classify-response.ts";
export { classifyDeliveryResponse, MAX_RETRY_AFTER_MS, parseRetryAfter } from "./classify-response.ts";
export type { NextDeliveryState } from "./next-delivery-state.ts";
export { nextDeliveryState } from "./next-delivery-state.ts";
export type { RandomSource } from "./retry-schedule.ts";
export { JITTER_FRACTION, MAX_ATTEMPTS, nextRetryDelay, RETRY_DELAYS_MS } from "./retry-schedule.ts";
