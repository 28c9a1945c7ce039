import { parseRichText, plainTextOf, validateDocument, validateSlotValues } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";

const plain = { bold: false, italic: false, underline: false, strike: false, color: null };

describe("rich text markup", () => {
  it("parses nested styles, colours, line breaks and entities into runs", () => {
    const result = parseRichText(
      'Buy <b>two <i>now</i></b>,<br>get <color value="#E11D48">one</color> &lt;free&gt;',
    );
    expect(result).toEqual({
      ok: true,
      runs: [
        { ...plain, text: "Buy " },
        { ...plain, text: "two ", bold: true },
        { ...plain, text: "now", bold: true, italic: true },
        { ...plain, text: ",\nget " },
        { ...plain, text: "one", color: "#E11D48" },
        { ...plain, text: " <free>" },
      ],
    });
  });

  it("keeps anything that is not a tag as plain text", () => {
    const source = "a < b && c > d, <3 <B> &nbsp; <-- x";
    const result = parseRichText(source);
    expect(result.ok && plainTextOf(result.runs)).toBe(source);
    expect(result.ok && result.runs).toHaveLength(1);
  });

  it("refuses a tag that is neither built in nor one of the template's inline styles", () => {
    const styles = new Set(["em", "mark"]);
    expect(parseRichText("a <div>x</div>", styles)).toEqual({
      ok: false,
      position: 3,
      message:
        '<div> is not a tag of this template (it has <b>, <i>, <u>, <s>, <color>, <br>, <em>, <mark>): define an inline style "div", or write &lt; for a literal "<"',
    });
    expect(parseRichText("x</bold>").ok).toBe(false);
    expect(parseRichText("&lt;div>x&lt;/div>")).toEqual({
      ok: true,
      runs: [{ ...plain, text: "<div>x</div>" }],
    });
  });

  it("puts runs inside named styles, outermost first, beside the built-in flags", () => {
    const result = parseRichText("<em>a <b><mark>b</mark></b></em> c", new Set(["em", "mark"]));
    expect(result).toEqual({
      ok: true,
      runs: [
        { ...plain, text: "a ", styles: ["em"] },
        { ...plain, text: "b", bold: true, styles: ["em", "mark"] },
        { ...plain, text: " c" },
      ],
    });
    expect(parseRichText("<em>a</mark>", new Set(["em", "mark"]))).toMatchObject({
      ok: false,
      message: "</mark> closes <em>, opened at character 1: close <em> first",
    });
  });

  it("accepts <br/>, <br />, underline, strike and single-quoted colours", () => {
    const result = parseRichText("<u>a</u><br/><s>b</s><br /><color value='#00000080'>c</color>");
    expect(result.ok && result.runs).toEqual([
      { ...plain, text: "a", underline: true },
      { ...plain, text: "\n" },
      { ...plain, text: "b", strike: true },
      { ...plain, text: "\n" },
      { ...plain, text: "c", color: "#00000080" },
    ]);
  });

  it.each([
    ["Hello <b>world", 7, "<b> is never closed (add </b>)"],
    ["Hello </b>", 7, "</b> closes nothing: no <b> is open"],
    ["<b><i>x</b></i>", 8, "</b> closes <i>, opened at character 4: close <i> first"],
    ['<color value="red">x</color>', 1, '<color value="red"> needs a colour: <color value="#RRGGBB">'],
    ["<color>x</color>", 1, '<color> needs a colour: <color value="#RRGGBB">'],
    ['<b class="x">x</b>', 1, '<b class="x">: <b> takes no attributes'],
    ["x</br>", 2, "</br> is not a line break: write <br>"],
    ["😀😀 <i>x", 4, "<i> is never closed (add </i>)"],
  ])("refuses %j at character %i", (markup, position, message) => {
    expect(parseRichText(markup)).toEqual({ ok: false, position, message });
  });
});

const richDocument = () =>
  documentOf([textLayer({ text: "<b>Design</b> text", bind: { text: "quote" } })], {
    slots: [{ name: "quote", type: "text", rich: true, default: "A <i>default</i>" }],
  });

describe("rich text slots in documents and values", () => {
  it("accepts valid markup in the design text, the default and values", () => {
    expect(validateDocument(richDocument()).ok).toBe(true);
    expect(validateSlotValues(richDocument(), { quote: "<b>ok</b>" }).ok).toBe(true);
  });

  it("reports malformed values with the JSON path and the position", () => {
    const result = validateSlotValues(richDocument(), { quote: "Say <b>hi" });
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          path: "values.quote",
          kind: "invalid",
          slot: "quote",
          message: "has malformed markup at character 5: <b> is never closed (add </b>)",
        },
      ],
    });
  });

  it("reports malformed defaults, samples and design texts of layers bound to a rich slot", () => {
    const doc = richDocument();
    const slot = doc.slots[0];
    const layer = doc.frames[0]?.layers[0];
    if (slot?.type !== "text" || layer?.type !== "text") throw new Error("fixture changed");
    slot.default = "</i>";
    layer.text = "<u>open";
    doc.sample = { quote: "<color>x</color>" };
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors.map((e) => [e.path, e.message])).toEqual([
      ["slots[0].default", "has malformed markup at character 1: </i> closes nothing: no <i> is open"],
      ["frames[0].layers[0].text", "has malformed markup at character 1: <u> is never closed (add </u>)"],
      [
        "sample.quote",
        'has malformed markup at character 1: <color> needs a colour: <color value="#RRGGBB">',
      ],
    ]);
  });

  it("does not read markup in slots that are not rich", () => {
    const doc = richDocument();
    const slot = doc.slots[0];
    if (slot?.type !== "text") throw new Error("fixture changed");
    slot.rich = false;
    expect(validateSlotValues(doc, { quote: "Say <b>hi" }).ok).toBe(true);
  });
});
