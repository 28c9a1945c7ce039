import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentDoc } from "./canvas-support.ts";
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
  waitSaved,
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
  let badge: { id: string; key: string; document: Starter } | null = null;
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
    badge = { id: starter?.id as string, key, document };
  }, 600_000);

  it("sets the name along an arc from the text form; published, the API draws what the editor does", async () => {
    const { page, url } = h;
    if (badge === null) throw new Error("the first case opens the badge");
    const { id, key, document } = badge;
    await page.locator('[data-layer="name"]').click();
    await page.getByTestId("text-path-on").check();
    await page.getByTestId("text-path-shape").selectOption("arc");
    await page.getByTestId("text-path-side").selectOption("inside");
    await waitSaved(page);
    const name = (await currentDoc(page)).frames[0]?.layers.find((l) => l.id === "name");
    // The line-only properties the path refuses went with turning it on.
    expect([name?.on_path, name?.align, name?.vertical_align]).toEqual([
      { shape: "arc", from: -60, to: 60, side: "inside" },
      undefined,
      undefined,
    ]);
    await apiClient(url, key)(`/v1/templates/${id}/publish`, { body: {} });
    const api = await renderThroughApi(url, key, {
      template: document.key,
      frame: "square",
      scale: 1,
      modifications: modificationsOf(document, document.sample),
    });
    const editor = await editorPixels(page, "square", document.sample, 1);
    expect((await straightRgba(editor)).equals(api.rgba), "editor pixels differ from the API PNG").toBe(true);
  }, 300_000);
});
