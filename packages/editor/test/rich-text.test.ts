import { parseRichText } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { patchStyle, styleNameProblem } from "../src/controls/InlineStyles.tsx";
import { fromRuns, setColor, spliceText, toggleFlag, toMarkup } from "../src/model/rich-edit.ts";

describe("editor rich text editing", () => {
  const parsed = (markup: string) => {
    const r = parseRichText(markup);
    if (!r.ok) throw new Error(r.message);
    return fromRuns(r.runs);
  };

  it("styles ranges, splices typing, and writes markup the engine parses back", () => {
    let t = parsed("Big news <b>today</b>");
    t = toggleFlag(t, 0, 3, "bold");
    t = setColor(t, 4, 8, "#DC2626");
    expect(toMarkup(t)).toBe('<b>Big</b> <color value="#DC2626">news</color> <b>today</b>');
    t = toggleFlag(t, 0, 3, "bold");
    t = spliceText(t, "Big news <today>\n!");
    expect(toMarkup(t)).toBe('Big <color value="#DC2626">news</color> &lt;today&gt;<br>!');
    expect(toMarkup(parsed(toMarkup(t)))).toBe(toMarkup(t));
  });

  it("keeps the template's named styles through an inline edit", () => {
    const styles = new Set(["em", "mark"]);
    const r = parseRichText("A <em>soft <b>word</b></em> and <mark>this</mark>", styles);
    if (!r.ok) throw new Error(r.message);
    let t = fromRuns(r.runs);
    t = toggleFlag(t, 0, 1, "bold");
    t = spliceText(t, "A soft words and this");
    const markup = toMarkup(t);
    expect(markup).toBe("<b>A</b> <em>soft </em><em><b>words</b></em> and <mark>this</mark>");
    expect(parseRichText(markup, styles).ok).toBe(true);
  });

  it("names new inline styles only as lower-case tags the template lacks, and drops cleared fields", () => {
    expect(styleNameProblem("em", { mark: {} })).toBeNull();
    expect(styleNameProblem("Em", undefined)).toBe("a lower-case name: letters, digits and -");
    expect(styleNameProblem("b", undefined)).toBe("<b> is built in");
    expect(styleNameProblem("mark", { mark: {} })).toBe("already defined");
    expect(patchStyle({ weight: 700, color: "#E11D48" }, { color: undefined, style: "italic" })).toEqual({
      weight: 700,
      style: "italic",
    });
  });
});
