import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createEngine, type TemplateDocumentT } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import type { CanvasKit, CanvasKitInitOptions } from "canvaskit-wasm";
import { describe, expect, it } from "vitest";
import { documentOf, panelOverWords, slateToIndigo, textLayer, violetToPink } from "../support/documents.ts";

const require = createRequire(import.meta.url);
const CanvasKitInit = require("canvaskit-wasm") as (options: CanvasKitInitOptions) => Promise<CanvasKit>;
const binDir = join(dirname(require.resolve("canvaskit-wasm/package.json")), "bin");

/** What CanvasKit keeps of its heap at run time (not in its typings): the current view of it. */
type WithHeap = CanvasKit & { HEAPU8: Uint8Array };

/**
 * A CanvasKit of its own (its heap is grown on purpose) whose MakeImage first grows the wasm heap when
 * it is handed a view of that heap, as its own allocation does whenever the heap has no room left:
 * growing detaches every view of the heap taken before. Counts the images asked of such a view.
 */
async function kitThatGrowsInMakeImage(): Promise<{ kit: CanvasKit; heapViews: () => number }> {
  const kit = (await CanvasKitInit({ locateFile: (file: string) => join(binDir, file) })) as WithHeap;
  const makeImage = kit.MakeImage.bind(kit);
  let heapViews = 0;
  kit.MakeImage = (info, bytes, bytesPerRow) => {
    if (ArrayBuffer.isView(bytes) && bytes.buffer === kit.HEAPU8.buffer) {
      heapViews++;
      // More than the whole heap: it cannot fit without growing. Freed at once (the heap stays grown).
      kit.Free(kit.Malloc(Uint8Array, kit.HEAPU8.byteLength));
    }
    return makeImage(info, bytes, bytesPerRow);
  };
  return { kit, heapViews: () => heapViews };
}

/** A shadowed panel the engine keeps as a raster, drawn over text that changes between renders. */
const keptPanel = panelOverWords(slateToIndigo());

/** Text filled with a gradient (its glyphs are recoloured in a raster of their own). */
const gradientText = documentOf(
  [
    textLayer({
      id: "title",
      text: "Gradient words",
      font: { family: "Inter", size: 40, weight: 700 },
      color: violetToPink(),
    }),
  ],
  { background: "#FFFFFF" },
);

describe("images made from the engine's own rasters survive a growing wasm heap", () => {
  it("draws a kept raster's composite and gradient text with the same bytes when each image grows the heap", async () => {
    // Before, the composite and the recoloured glyphs went to MakeImage as views of the heap, and an
    // editor thumbnail failed now and then with "Cannot perform %TypedArray%.prototype.set on a
    // detached or out-of-bounds ArrayBuffer": MakeImage's own allocation had grown the heap.
    const fonts = await loadFontSet();
    const { kit, heapViews } = await kitThatGrowsInMakeImage();
    const growing = createEngine({ canvasKit: kit, fonts });
    const plain = createEngine({
      canvasKit: await CanvasKitInit({ locateFile: (file: string) => join(binDir, file) }),
      fonts,
    });
    const renders: [string, TemplateDocumentT, Record<string, string> | undefined][] = [
      ["kept panel, first", keptPanel, { words: "Words under the panel" }],
      ["kept panel, over other words", keptPanel, { words: "Other words, longer, that wrap under it" }],
      ["gradient text", gradientText, undefined],
    ];
    for (const [name, document, values] of renders) {
      const drawn = Buffer.from(growing.render(document, { values }).pixels);
      const expected = Buffer.from(plain.render(document, { values }).pixels);
      expect(Buffer.compare(drawn, expected), name).toBe(0);
    }
    expect(heapViews()).toBe(0);
    growing.dispose();
    plain.dispose();
  });
});
