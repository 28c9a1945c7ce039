import { signCallback, verifyCallback } from "@pictor/client";
import { describe, expect, it } from "vitest";
import { buildCallbackEvent, type CompletedRenderForCallback } from "../../src/domain/webhooks/index.ts";

const render: CompletedRenderForCallback = {
  id: "rnd_abc",
  template: "tpl_banner",
  output_url: "https://pictor.example/v1/outputs/ast_1?expires=1700000000&sig=deadbeef",
  asset_url: "https://pictor.example/a/0123456789abcdef0123456789abcdef/ast_1.png",
  width: 2400,
  height: 1260,
  credits_charged: 4,
  warnings: ["font_fallback: Inter -> Noto Sans"],
  completed_at: Date.UTC(2026, 10, 22, 3, 4, 5, 678),
};

describe("buildCallbackEvent", () => {
  it("carries exactly the spec fields plus event, event_id, template and created_at", () => {
    const event = buildCallbackEvent(render);
    expect(event.event_id).toMatch(/^evt_[A-Za-z0-9]{22}$/);
    const body = JSON.parse(event.body);
    expect(Object.keys(body).sort()).toEqual(
      [
        "asset_url",
        "created_at",
        "credits_charged",
        "event",
        "event_id",
        "height",
        "id",
        "metadata",
        "status",
        "template",
        "url",
        "width",
      ].sort(),
    );
    expect(body).toEqual({
      event: "render.completed",
      event_id: event.event_id,
      id: "rnd_abc",
      status: "completed",
      template: "tpl_banner",
      url: render.output_url,
      asset_url: render.asset_url,
      width: 2400,
      height: 1260,
      credits_charged: 4,
      metadata: { warnings: ["font_fallback: Inter -> Noto Sans"] },
      created_at: "2026-11-22T03:04:05.678Z",
    });
  });

  it("fixes the bytes: the same input and event id give the same body, so a stored body re-signs identically", () => {
    const a = buildCallbackEvent(render, "evt_fixed");
    const b = buildCallbackEvent({ ...render }, "evt_fixed");
    expect(a.body).toBe(b.body);
    expect(verifyCallback(a.body, signCallback(b.body, "whsec_x"), "whsec_x")).toBe(true);
  });

  it("gives every event its own id", () => {
    expect(buildCallbackEvent(render).event_id).not.toBe(buildCallbackEvent(render).event_id);
  });

  it("refuses non-integer dimensions or credits: a bug upstream, not something to send", () => {
    expect(() => buildCallbackEvent({ ...render, width: 12.5 })).toThrow(/width/);
    expect(() => buildCallbackEvent({ ...render, credits_charged: -1 })).toThrow(/credits_charged/);
  });
});
