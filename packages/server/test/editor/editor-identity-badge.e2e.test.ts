import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiClient,
  type DocumentLike,
  type EditorHarness,
  editorPixels,
  haveChromium,
  inCI,
  modificationsOf,
  renderThroughApi,
  type SlotSample,
  signUp,
  startEditorHarness,
  straightRgba,
} from "./harness.ts";

/**
 * Acceptance (issue 37): the round badge starter, built on a soft mask (the photo fading out), text on
 * a path bound to slots (the title round the top, the crew line round the bottom), an image pattern
 * (the emblem wallpaper, imported as the account's asset) and a built-in pattern, draws the same
 * pixels in the editor as the API returns, at scales 1 and 2, for its sample and for other words
 * along the arc.
 */

interface Starter extends DocumentLike {
  sample: Record<string, SlotSample>;
  frames: (DocumentLike["frames"][number] & {
    layers: { id: string; on_path?: unknown; fill?: unknown }[];
  })[];
}

(haveChromium || inCI ? describe : describe.skip)("editor = API for the round badge starter", () => {
  let h: EditorHarness;
  beforeAll(async () => {
    h = await startEditorHarness();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it("opens the badge and matches the API's PNG byte for byte, with the sample and with other words on the arc", async () => {
    const { page, url } = h;
    const key = await signUp(page, url, "Badge starter");
    await page.getByTestId("continue").click();
    const call = apiClient(url, key);
    const list = await call<{ data: { id: string; key: string }[] }>("/v1/templates?limit=200");
    const starter = list.data.find((t) => t.key === "round-badge");
    expect(starter, "round-badge in the new account").toBeDefined();
    const { document } = await call<{ document: Starter }>(`/v1/templates/${starter?.id}`);
    const layers = document.frames[0]?.layers ?? [];
    // The wallpaper's tile is the account's copy of the example's emblem, as image layers' pictures are.
    expect(JSON.stringify(layers.find((l) => l.id === "wallpaper")?.fill)).toMatch(/"image":"asset:\/\/ast_/);
    expect(layers.filter((l) => l.on_path !== undefined).map((l) => l.id)).toEqual(["title", "subtitle"]);

    await page.goto(`${url}/#/t/${starter?.id}`);
    await page.getByTestId("editor").waitFor({ timeout: 90_000 });
    const variants: [string, Record<string, SlotSample>, number][] = [
      ["sample", document.sample, 1],
      ["sample", document.sample, 2],
      ["other title", { ...document.sample, title: "Winter Lights Night Market" }, 1],
    ];
    const seen: Buffer[] = [];
    for (const [variant, values, scale] of variants) {
      const api = await renderThroughApi(url, key, {
        template: document.key,
        frame: "square",
        scale,
        modifications: modificationsOf(document, values),
      });
      const editor = await editorPixels(page, "square", values, scale);
      expect(editor.imageErrors).toEqual([]);
      expect([editor.width, editor.height]).toEqual([api.width, api.height]);
      const rgba = await straightRgba(editor);
      expect(
        rgba.equals(api.rgba),
        `${variant} at scale ${scale}: API PNG differs from the editor's pixels`,
      ).toBe(true);
      if (scale === 1) seen.push(api.rgba);
    }
    // The other title really changed the words drawn along the arc.
    expect(seen[1]?.equals(seen[0] as Buffer)).toBe(false);
  }, 600_000);
});
