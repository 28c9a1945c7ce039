import { parseRichText } from "@pictor/engine";
import { describe, expect, it } from "vitest";
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
});
