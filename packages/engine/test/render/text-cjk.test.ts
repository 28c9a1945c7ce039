import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("CJK line breaking", () => {
  it("breaks Chinese between ideographs and keeps closing punctuation off line starts", async () => {
    const result = await expectGolden(
      "text-cjk",
      "chinese",
      documentOf(
        [
          textLayer({
            text: "模板设计简单快捷。输入你想要的文字，渲染引擎会把它排成多行，并遵守中文的断行规则。",
            font: { family: "Noto Sans SC", size: 28 },
            width: 300,
            height: 200,
          }),
        ],
        { height: 240 },
      ),
    );
    expect(result.warnings).toEqual([]);
  });

  it("breaks Japanese mixing kanji, kana and Latin", async () => {
    const result = await expectGolden(
      "text-cjk",
      "japanese",
      documentOf(
        [
          textLayer({
            text: "テンプレートのデザインは簡単です。Pictorが文字を複数行に組み、日本語の禁則処理を守ります。",
            font: { family: "Noto Sans JP", size: 28 },
            width: 300,
            height: 200,
          }),
        ],
        { height: 240 },
      ),
    );
    expect(result.warnings).toEqual([]);
  });
});
