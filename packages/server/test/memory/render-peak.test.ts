import { readFileSync, writeFileSync } from "node:fs";
import { validateDocument } from "@pictor/engine";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
import { renderCost } from "../../src/domain/render-cost.ts";
import { machineMemoryMiB, planMemory } from "../../src/main/memory-plan.ts";
import type { AssetRecord } from "../../src/ports/asset-store.ts";
import { api, newAccount, publishTemplate, startTestServer, type TestServer } from "../api/support.ts";
import { photoDoc, shadowedText } from "../support/heavy-documents.ts";

/**
 * The cost model against real renders: issue 33's documents (item 1's shadowed text, item 6's
 * 8000x8000 photo, item 10's shadowed text at scale 2) and a card at scale 4, sent to a real server
 * (one render thread, the default memory budget) in wait mode. A refused render must be one whose
 * estimate is over the per-render budget or cannot be drawn at all; an accepted one must stay within
 * its estimate and the budget, read as the process's peak resident memory (VmHWM, reset before each
 * render through /proc/self/clear_refs) over its resident memory just before. Before the model, the
 * photo peaked at 1.4 GB under a budget that left a render thread 255 MiB, and the text at 3.5 GB.
 */

const MiB = 1024 * 1024;

function memory(): { rss: number; peak: number } {
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kib("VmRSS") * 1024, peak: kib("VmHWM") * 1024 };
}

/** Resets the peak (VmHWM) to the current resident memory; false where the kernel does not allow it. */
function resetPeak(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

const card = {
  version: 2,
  key: "card",
  name: "Card",
  slots: [],
  frames: [
    {
      name: "main",
      width: 1200,
      height: 630,
      background: "#F4F1EA",
      layers: [
        {
          id: "panel",
          type: "shape",
          shape: "rectangle",
          x: 60,
          y: 60,
          width: 500,
          height: 300,
          fill: "#1F6FEB",
        },
        {
          id: "title",
          type: "text",
          x: 60,
          y: 400,
          width: 1000,
          height: 120,
          text: "Still rendering",
          color: "#111111",
          font: { family: "Inter", size: 64, weight: 700 },
          shadows: [{ x: 2, y: 2, blur: 8, color: "#00000066" }],
        },
      ],
    },
  ],
};

/** A photo-like JPEG (a smooth gradient), recorded with its size as an upload would be. */
async function insertPhoto(t: TestServer, accountId: string, side: number): Promise<AssetRecord> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f6d7a7"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${side / 2}" cy="${side / 2}" r="${side / 4}" fill="#f4a259"/></svg>`;
  const bytes = new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
  const id = newId("ast");
  const asset: AssetRecord = {
    id,
    accountId,
    folder: "photos",
    name: "photo.jpg",
    contentType: "image/jpeg",
    byteSize: bytes.byteLength,
    width: side,
    height: side,
    blobKey: `assets/${id}`,
    token: newAssetToken(),
    etag: `"${id}"`,
    metadata: {},
    tags: [],
    renderId: null,
    createdAt: new Date().toISOString(),
  };
  await t.data.blobs.put(asset.blobKey, bytes);
  await t.data.assets.insert(asset);
  return asset;
}

describe("the per-render budget (memory-plan.ts renderBytes)", () => {
  it("is a thread's share of the budget less its baseline and caches, at least 64 MiB", () => {
    const machineMiB = 24_000;
    const mib = (plan: { renderBytes: number }) => Math.round(plan.renderBytes / MiB);
    // 1024 - 120 main thread - 102.4 editor images (a tenth), less 130 baseline, 256 prepared-image
    // cache and 32 composed-image cache.
    expect(mib(planMemory({ requestedThreads: 1, budgetMiB: 1024, machineMiB }))).toBe(384);
    // Two threads: (1024 - 120 - 102.4) / 2 - 130 - 72.9 - 18.2.
    expect(mib(planMemory({ requestedThreads: 2, budgetMiB: 1024, machineMiB }))).toBe(180);
    expect(mib(planMemory({ requestedThreads: 1, budgetMiB: 300, machineMiB }))).toBe(64);
    // No setting: three quarters of the machine's memory, here 24,000 MiB with 2 threads (editor
    // images at their 256 MiB most).
    expect(mib(planMemory({ requestedThreads: 2, budgetMiB: undefined, machineMiB }))).toBe(8394);
  });
});

describe("a render's measured peak stays within its estimate and the per-render budget", () => {
  let t: TestServer;
  let account: { accountId: string; key: string };
  let photo: AssetRecord;
  // What `pictor serve --workers 1` plans with no --memory-budget (the test server's settings).
  const budget = planMemory({ requestedThreads: 1, budgetMiB: undefined, machineMiB: machineMemoryMiB() });

  beforeAll(async () => {
    t = await startTestServer({ workers: 1 });
    account = await newAccount(t, 100);
    photo = await insertPhoto(t, account.accountId, 2000);
    await publishTemplate(t, account.key, shadowedText);
    await publishTemplate(t, account.key, photoDoc(photo.id));
    await publishTemplate(t, account.key, card);
  });
  afterAll(async () => {
    await t?.close();
  });

  const cases: { name: string; doc: () => unknown; template: string; scale: number }[] = [
    { name: "a card at scale 4", doc: () => card, template: "card", scale: 4 },
    { name: "item 1: the shadowed text", doc: () => shadowedText, template: "shadowed-text", scale: 1 },
    {
      name: "item 10: the shadowed text at scale 2",
      doc: () => shadowedText,
      template: "shadowed-text",
      scale: 2,
    },
    { name: "item 6: the 8000x8000 photo", doc: () => photoDoc(photo.id), template: "big-photo", scale: 1 },
  ];

  it.each(cases)(
    "$name",
    async ({ doc, template, scale }) => {
      const valid = validateDocument(doc());
      if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
      const shape = { frames: ["main"], scale, values: {}, format: "png" as const };
      const estimate = renderCost(valid.document, shape, new Map([[photo.id, photo]]));
      const refusable = estimate.unfit !== null || estimate.bytes > budget.renderBytes;

      const canReset = resetPeak();
      const before = memory();
      const res = await api(t, "POST", "/v1/renders", {
        key: account.key,
        body: { template, modifications: [], scale, wait: true },
      });
      const after = memory();
      const grown = (canReset ? after.peak : Math.max(after.peak, after.rss)) - before.rss;
      const report = `estimate ${Math.round(estimate.bytes / MiB)} MiB (drawing heap ${Math.round(estimate.costliest.frame.heapBytes / MiB)} MiB), budget ${Math.round(budget.renderBytes / MiB)} MiB a render, peak +${Math.round(grown / MiB)} MiB: ${res.status} ${res.status === 200 ? "" : JSON.stringify(res.body.error)}`;
      console.log(report);

      if (refusable) {
        expect(res.status, report).toBe(422);
        expect(res.body.error.code).toBe("render_too_large");
        return;
      }
      expect(res.status, report).toBe(200);
      expect(res.body.status).toBe("completed");
      expect(estimate.bytes).toBeLessThanOrEqual(budget.renderBytes);
      if (canReset) expect(grown, report).toBeLessThanOrEqual(estimate.bytes);
    },
    60_000,
  );

  it("items 1 and 10 cannot be drawn on any budget: their rasters do not fit CanvasKit's heap", () => {
    const valid = validateDocument(shadowedText);
    if (!valid.ok) throw new Error("invalid");
    for (const scale of [1, 2]) {
      const shape = { frames: ["main"], scale, values: {}, format: "png" as const };
      expect(renderCost(valid.document, shape, new Map()).unfit?.frame).toBe("main");
    }
  });
});
