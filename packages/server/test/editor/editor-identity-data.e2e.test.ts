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
 * Acceptance (issue 36): the starters built on document v3 (stacks, number, date and list slots,
 * repeats, progress and chart layers) draw the same pixels in the editor as the API returns, with
 * numbers and dates formatted in the template's locale, en-US as shipped and, for copies saved with
 * another `locale`, de-DE and ar-EG (digits, separators, currency signs and right-to-left text of
 * their own): one pinned formatter in both, never the runtime's ICU.
 */

const STARTERS = ["fundraiser-card", "job-post"] as const;
const LOCALES = [null, "de-DE", "ar-EG"] as const;

interface Starter extends DocumentLike {
  locale?: string;
  sample: Record<string, SlotSample>;
}

(haveChromium || inCI ? describe : describe.skip)("editor = API for the data starters", () => {
  let h: EditorHarness;
  beforeAll(async () => {
    h = await startEditorHarness();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it("opens the fundraiser and job post starters in en-US, de-DE and ar-EG and matches the API's PNG byte for byte", async () => {
    const { page, url } = h;
    const key = await signUp(page, url, "Data starters");
    await page.getByTestId("continue").click();
    const call = apiClient(url, key);
    const list = await call<{ data: { id: string; key: string }[] }>("/v1/templates?limit=200");

    const checked: string[] = [];
    const shaOf = new Map<string, Buffer>();
    for (const starterKey of STARTERS) {
      const starter = list.data.find((t) => t.key === starterKey);
      expect(starter, `starter ${starterKey} in the new account`).toBeDefined();
      const { document } = await call<{ document: Starter }>(`/v1/templates/${starter?.id}`);
      for (const locale of LOCALES) {
        // A copy saved with the locale: what a designer in Berlin or Cairo would publish.
        const doc: Starter =
          locale === null
            ? document
            : { ...structuredClone(document), key: `${starterKey}-${locale.toLowerCase()}`, locale };
        const id =
          locale === null
            ? (starter?.id as string)
            : (await call<{ id: string }>("/v1/templates", { body: { document: doc, publish: true } })).id;
        await page.goto(`${url}/#/t/${id}`);
        await page.getByTestId("editor").waitFor({ timeout: 90_000 });
        const opened = (await page.evaluate(() =>
          (window as unknown as { __pictor: { currentDocument(): unknown } }).__pictor.currentDocument(),
        )) as Starter;
        expect([opened.key, opened.locale]).toEqual([doc.key, doc.locale]);
        // The sample, and for the job post the sample without the optional salary (its line hidden,
        // the rest moved up).
        const variants: [string, Record<string, SlotSample>][] = [["sample", doc.sample]];
        if (starterKey === "job-post") {
          const { salary: _salary, ...rest } = doc.sample;
          variants.push(["no salary", rest]);
        }
        for (const [variant, values] of variants) {
          for (const frame of doc.frames) {
            const api = await renderThroughApi(url, key, {
              template: doc.key,
              frame: frame.name,
              scale: 1,
              modifications: modificationsOf(doc, values),
            });
            const editor = await editorPixels(page, frame.name, values, 1);
            expect(editor.imageErrors).toEqual([]);
            expect([editor.width, editor.height]).toEqual([api.width, api.height]);
            const rgba = await straightRgba(editor);
            const label = `${doc.key}/${frame.name} (${variant})`;
            expect(rgba.equals(api.rgba), `${label}: API PNG differs from the editor's pixels`).toBe(true);
            shaOf.set(`${starterKey}/${locale ?? "en-US"}/${variant}`, api.rgba);
            checked.push(label);
          }
        }
      }
    }
    expect(checked).toHaveLength(STARTERS.length * LOCALES.length + LOCALES.length);
    // The locales really drew their own numbers: each locale's pixels differ from en-US's.
    for (const starterKey of STARTERS) {
      const en = shaOf.get(`${starterKey}/en-US/sample`);
      for (const locale of ["de-DE", "ar-EG"]) {
        const other = shaOf.get(`${starterKey}/${locale}/sample`);
        expect(other?.equals(en as Buffer), `${starterKey} in ${locale} looks like en-US`).toBe(false);
      }
    }
    // Leaving the salary out changed the job post (its line hidden).
    const withSalary = shaOf.get("job-post/en-US/sample");
    expect(shaOf.get("job-post/en-US/no salary")?.equals(withSalary as Buffer)).toBe(false);
  }, 600_000);
});
