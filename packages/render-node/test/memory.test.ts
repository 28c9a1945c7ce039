import { createHash } from "node:crypto";
import {
  createEngine,
  type DeferredFontFamily,
  type FontSet,
  type TemplateDocumentT,
  validateDocument,
} from "@pictor/engine";
import { FONT_FACES, fontFileCoverage, fontFilePath, loadDeferredFontSet, loadFontSet } from "@pictor/fonts";
import type { CanvasKit } from "canvaskit-wasm";
import { describe, expect, it, vi } from "vitest";
import { loadCanvasKit, wasmHeapBuffer } from "../src/canvaskit.ts";
import { createNodeRenderer } from "../src/renderer.ts";
import { trimNativeHeap } from "../src/trim-native-heap.ts";

/**
 * Issue 24: a render thread registers font families only when a text needs them, and leaves the
 * WebAssembly heap of a very large render behind. Both must draw exactly what the eager set and a
 * fresh engine draw.
 */

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function textDocument(text: string, family: string, weight: number, italic = false): TemplateDocumentT {
  const result = validateDocument({
    version: 1,
    key: "t",
    name: "t",
    slots: [],
    frames: [
      {
        name: "f",
        width: 520,
        height: 200,
        layers: [
          {
            id: "a",
            type: "text",
            x: 10,
            y: 10,
            width: 500,
            height: 180,
            text,
            color: "#112233",
            max_lines: 2,
            font: { family, size: 34, weight, ...(italic ? { style: "italic" } : {}) },
          },
        ],
      },
    ],
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.document;
}

/** The deferred set, with each family's loads counted. */
function countingSet(): { set: FontSet; loads: Map<string, number> } {
  const base = loadDeferredFontSet();
  const loads = new Map<string, number>();
  const deferred = (base.deferred ?? []).map(
    (family): DeferredFontFamily => ({
      ...family,
      load: () => {
        loads.set(family.family, (loads.get(family.family) ?? 0) + 1);
        return family.load();
      },
    }),
  );
  return { set: { ...base, deferred }, loads };
}

const TEXTS = [
  "Hello world, 42 — “quoted” …",
  "你好，世界 こんにちは 안녕하세요 🎉😀👍🏽",
  "مرحبا بالعالم 123",
  "שלום, 42!",
  "नमस्ते दुनिया",
  "สวัสดีชาวโลก",
  "Привет мир Ελληνικά",
  "❤️ #1 © ® 1️⃣",
  "\u{10FFFD} tofu \u{E000}",
  "日本語のテキスト、漢字們们",
];
const FAMILIES = ["Inter", "Bebas Neue", "Noto Sans Hebrew", "Not A Shipped Family", "Playfair Display"];

describe("deferred font families (issue 24)", () => {
  it("reads each face's coverage from its cmap exactly as the font answers it", async () => {
    const canvasKit = await loadCanvasKit();
    // One face per script family and a Latin one: every BMP code point and the emoji planes.
    const faces = FONT_FACES.filter((f) =>
      ["Inter", "Noto Sans Hebrew", "Noto Sans KR", "Noto Color Emoji", "Noto Sans Thai"].includes(f.family),
    ).filter((f) => f.weight === 400 && f.style === "normal");
    expect(faces).toHaveLength(5);
    const { readFileSync } = await import("node:fs");
    const probe = [
      ...Array.from({ length: 0xd800 }, (_, i) => i),
      ...Array.from({ length: 0x10000 - 0xe000 }, (_, i) => 0xe000 + i),
      ...Array.from({ length: 0x2000 }, (_, i) => 0x1f000 + i),
    ].filter((cp) => cp > 0x20);
    for (const face of faces) {
      const typeface = canvasKit.Typeface.MakeTypefaceFromData(
        new Uint8Array(readFileSync(fontFilePath(face))).buffer,
      );
      if (!typeface) throw new Error(`cannot load ${face.file}`);
      const ranges = fontFileCoverage(fontFilePath(face));
      const inRanges = (cp: number) => {
        for (let i = 0; i < ranges.length; i += 2)
          if (cp >= (ranges[i] as number) && cp <= (ranges[i + 1] as number)) return true;
        return false;
      };
      const text = String.fromCodePoint(...probe);
      const glyphs = typeface.getGlyphIDs(text, probe.length);
      const wrong = probe.filter((cp, i) => (glyphs[i] !== 0) !== inRanges(cp));
      typeface.delete();
      expect(wrong.slice(0, 5), face.family).toEqual([]);
    }
  });

  it("draws every script, family, weight and style exactly as the eager set, loading families only as needed", async () => {
    const canvasKit = await loadCanvasKit();
    const eager = createEngine({ canvasKit, fonts: await loadFontSet() });
    let compared = 0;
    for (const family of FAMILIES) {
      for (const text of TEXTS) {
        for (const [weight, italic] of [
          [400, false],
          [700, true],
        ] as const) {
          const document = textDocument(text, family, weight, italic);
          const expected = eager.render(document, {});
          const expectedSha = sha(expected.pixels);
          const expectedWarnings = JSON.stringify(expected.warnings);
          // A fresh engine per case: what it loads depends on this text alone.
          const lazy = createEngine({ canvasKit, fonts: countingSet().set });
          const drawn = lazy.render(document, {});
          expect(sha(drawn.pixels), `${family} ${weight} ${text}`).toBe(expectedSha);
          expect(JSON.stringify(drawn.warnings)).toBe(expectedWarnings);
          lazy.dispose();
          compared++;
        }
      }
    }
    eager.dispose();
    expect(compared).toBe(FAMILIES.length * TEXTS.length * 2);
  });

  it("loads nothing but the layer's family and Noto Sans's neighbours for Latin, and CJK and emoji only when the text has them", async () => {
    const canvasKit = await loadCanvasKit();
    const { set, loads } = countingSet();
    const engine = createEngine({ canvasKit, fonts: set });
    engine.render(textDocument("Hello world, 42!", "Inter", 700), {});
    expect([...loads.keys()]).toEqual(["Inter"]);
    engine.render(textDocument("Hello 你好 😀", "Inter", 400), {});
    expect([...loads.keys()].sort()).toEqual(["Inter", "Noto Color Emoji", "Noto Sans SC"]);
    // A family is loaded once per engine.
    engine.render(textDocument("再见 😀", "Inter", 400), {});
    expect([...loads.values()].every((n) => n === 1)).toBe(true);
    engine.dispose();
  });
});

describe("renderer recycles its WebAssembly heap after a large render (issue 24)", () => {
  it("moves to a fresh heap only after a frame above the limit, and draws the same bytes there", async () => {
    const renderer = await createNodeRenderer({ recycle: { aboveBytes: 4 * 1024 * 1024, idleMs: 0 } });
    const document = textDocument("Hello 你好 😀", "Inter", 400);
    const options = { format: "png" as const, loadImage: async () => new Uint8Array() };
    const small = await renderer.render(document, options);
    expect(await renderer.recycleNow()).toBe(false);
    const large = await renderer.render(document, { ...options, scale: 4 });
    expect(large.width).toBe(2080);
    expect(await renderer.recycleNow()).toBe(true);
    expect(renderer.recycles).toBe(1);
    expect(await renderer.recycleNow()).toBe(false);
    expect(sha((await renderer.render(document, options)).bytes)).toBe(sha(small.bytes));
    expect(sha((await renderer.render(document, { ...options, scale: 4 })).bytes)).toBe(sha(large.bytes));
    renderer.dispose();
  });
});

/**
 * A weak reference to the instance's heap as it spans now (a grown heap's earlier buffer is detached
 * and collected apart from the memory); in a function of its own so that no variable of the test
 * keeps the instance alive.
 */
function heapOf(instance: WeakRef<CanvasKit> | null): WeakRef<ArrayBufferLike> {
  const kit = instance?.deref();
  if (!kit) throw new Error("the render drew on no instance");
  return new WeakRef(wasmHeapBuffer(kit));
}

describe("an idle renderer gives a large render's heap back before it trims", () => {
  it("collects the replaced WebAssembly heap, then trims the C heap", async () => {
    let drawnOn: WeakRef<CanvasKit> | null = null;
    const renderer = await createNodeRenderer({
      recycle: { aboveBytes: 4 * 1024 * 1024, idleMs: 5 },
      beforeDraw: (kit) => {
        drawnOn = new WeakRef(kit);
      },
    });
    await vi.waitFor(() => expect(renderer.trims).toBe(1));
    const options = { format: "png" as const, loadImage: async () => new Uint8Array() };
    await renderer.render(textDocument("Hello", "Inter", 400), { ...options, scale: 4 });
    const heap = heapOf(drawnOn);
    await vi.waitFor(() => expect(renderer.trims).toBe(2), { timeout: 10_000 });
    expect(renderer.recycles).toBe(1);
    // A boolean: a failing assertion would print the whole buffer.
    expect(heap.deref() === undefined, "the replaced heap is still alive").toBe(true);
    renderer.dispose();
  });
});

describe("an idle renderer gives the C heap's free pages back (issue 24)", () => {
  it("trims once idle after its set-up, and once after each idle spell that follows renders", async () => {
    const renderer = await createNodeRenderer({ recycle: { idleMs: 5 } });
    const options = { format: "png" as const, loadImage: async () => new Uint8Array() };
    await vi.waitFor(() => expect(renderer.trims).toBe(1));
    await renderer.render(textDocument("Hello", "Inter", 400), options);
    await vi.waitFor(() => expect(renderer.trims).toBe(2));
    await renderer.render(textDocument("Hello again", "Inter", 400), options);
    await vi.waitFor(() => expect(renderer.trims).toBe(3));
    expect(renderer.recycles).toBe(0);
    renderer.dispose();
  });

  it("calls glibc's malloc_trim on Linux", () => {
    // CI and the supported servers run glibc Linux; elsewhere there is nothing to call.
    expect(trimNativeHeap()).toBe(process.platform === "linux");
  });
});
