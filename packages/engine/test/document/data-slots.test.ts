import { describe, expect, it } from "vitest";
import type { TemplateDocumentT } from "../../src/document/schema.ts";
import { validateDocument } from "../../src/document/validate.ts";
import { validateSlotValues } from "../../src/document/values.ts";
import { Bindings } from "../../src/render/bindings.ts";
import { validDocument } from "./helpers.ts";

const template: Pick<TemplateDocumentT, "slots"> = {
  slots: [
    { name: "raised", type: "number", min: 0 },
    { name: "ends", type: "date" },
    {
      name: "donors",
      type: "list",
      max_items: 20,
      fields: [
        { name: "name", type: "text", required: true, max_length: 30 },
        { name: "amount", type: "number", required: true },
        { name: "photo", type: "image" },
        { name: "tint", type: "color" },
      ],
    },
  ],
};

const invalid = (path: string, slot: string, message: string | RegExp) => ({
  ok: false,
  errors: [
    expect.objectContaining({
      path,
      slot,
      kind: "invalid",
      message: typeof message === "string" ? message : expect.stringMatching(message),
    }),
  ],
});

describe("number, date and list slot values", () => {
  it("accepts a number, an ISO 8601 date and items, and returns them as given", () => {
    const values = {
      raised: 7250.5,
      ends: "2026-12-24T18:00:00+01:00",
      donors: [
        { name: "Ada", amount: 500 },
        { name: "Grace", amount: 250, photo: "https://example.com/g.jpg", tint: "#112233" },
      ],
    };
    expect(validateSlotValues(template, values)).toEqual({ ok: true, values });
  });

  it.each([
    ["72", "must be a number (number slot), not a string"],
    [null, "must be a number (number slot), not null"],
    [[1], "must be a number (number slot), not an array"],
    [-1, "must be at least 0 (the slot's min)"],
  ])("refuses %j for a number slot", (value, message) => {
    expect(validateSlotValues(template, { raised: value })).toEqual(
      invalid("values.raised", "raised", message),
    );
  });

  it.each(["2026-02-30", "28.11.2026", "2026-11-28T25:00", "2026-11-28 18:00", "tomorrow"])(
    "refuses the date %j",
    (value) => {
      expect(validateSlotValues(template, { ends: value })).toEqual(
        invalid("values.ends", "ends", /ISO 8601/),
      );
    },
  );

  it.each(["2026-11-28", "2026-11-28T18:30", "2026-11-28T18:30:05Z", "2024-02-29T00:00:00.125-05:30"])(
    "accepts the date %j",
    (value) => {
      expect(validateSlotValues(template, { ends: value }).ok).toBe(true);
    },
  );

  it("refuses an item without a required field, naming the item", () => {
    const result = validateSlotValues(template, { donors: [{ name: "Ada", amount: 5 }, { name: "Bob" }] });
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          path: "values.donors[1]",
          within: "[1]",
          kind: "invalid",
          slot: "donors",
          message: 'lacks the required field "amount"',
        },
      ],
    });
  });

  it("refuses a field of the wrong type, an unknown field and a text over the field's max_length", () => {
    const result = validateSlotValues(template, {
      donors: [
        { name: "Ada", amount: "500" },
        { name: "x".repeat(31), amount: 1, amout: 2 },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.path, e.message])).toEqual([
      ["values.donors[0].amount", "must be a number (number slot), not a string"],
      ["values.donors[1].name", "must be at most 30 characters (the field's max_length)"],
      [
        "values.donors[1].amout",
        'is not a field of the list\'s items (did you mean "amount"?); fields: "name", "amount", "photo", "tint"',
      ],
    ]);
  });

  it("refuses more items than the slot's max_items, and a list that is not an array", () => {
    const items = Array.from({ length: 21 }, (_, i) => ({ name: `n${i}`, amount: i }));
    expect(validateSlotValues(template, { donors: items })).toEqual(
      invalid("values.donors", "donors", "must hold at most 20 items (the slot's max_items), not 21"),
    );
    expect(validateSlotValues(template, { donors: { name: "Ada" } })).toEqual(
      invalid("values.donors", "donors", "must be an array of items (list slot), not an object"),
    );
  });

  it("caps every list at 100 items, whatever max_items says", () => {
    const open = {
      slots: [{ name: "rows", type: "list" as const, fields: [{ name: "v", type: "number" as const }] }],
    };
    const items = Array.from({ length: 101 }, (_, i) => ({ v: i }));
    expect(validateSlotValues(open, { rows: items })).toEqual(
      invalid("values.rows", "rows", "must hold at most 100 items, not 101"),
    );
    expect(validateSlotValues(open, { rows: items.slice(0, 100) }).ok).toBe(true);
  });
});

describe("documents with number, date and list slots", () => {
  const withSlots = (slots: unknown[], sample?: unknown) => {
    const doc = validDocument();
    doc.slots.push(...(slots as Record<string, unknown>[]));
    if (sample !== undefined) doc.sample = sample;
    return validateDocument(doc);
  };
  const list = {
    name: "rows",
    type: "list",
    fields: [
      { name: "label", type: "text", required: true },
      { name: "value", type: "number" },
    ],
  };

  it("accepts them with defaults and sample values of their types", () => {
    const result = withSlots(
      [
        { name: "pct", type: "number", default: 72, min: 0, max: 100 },
        { name: "day", type: "date", default: "2026-11-28" },
        { ...list, default: [{ label: "a", value: 1 }] },
      ],
      { pct: 40, day: "2026-12-01T10:00Z", rows: [{ label: "b" }] },
    );
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it("refuses a default or sample item that lacks a required field, and a default out of range", () => {
    const result = withSlots(
      [
        { name: "pct", type: "number", default: 120, max: 100 },
        { ...list, default: [{ value: 1 }] },
      ],
      { rows: [{ label: "ok" }, { value: 2 }] },
    );
    expect(result.ok ? [] : result.errors).toEqual([
      { path: "slots[3].default", message: "must be at most 100 (the slot's max)" },
      { path: "slots[4].default[0]", message: 'lacks the required field "label"' },
      { path: "sample.rows[1]", message: 'lacks the required field "label"' },
    ]);
  });

  it("refuses a list of more than 100 items and duplicate field names", () => {
    const result = withSlots([
      { ...list, max_items: 101, fields: [...list.fields, { name: "label", type: "text" }] },
    ]);
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual(["slots[3].max_items"]);
    const dup = withSlots([{ ...list, fields: [...list.fields, { name: "label", type: "number" }] }]);
    expect(dup.ok ? [] : dup.errors).toEqual([
      {
        path: "slots[3].fields[2].name",
        message: 'duplicate field name "label" (first at slots[3].fields[0])',
      },
    ]);
  });

  it("lets a text layer show a number or date slot, but not a list slot", () => {
    const bound = (slot: string) => {
      const doc = validDocument();
      doc.slots.push({ name: "pct", type: "number" }, { name: "day", type: "date" }, list);
      (doc.frames[0]?.layers[0] as { bind: Record<string, string> }).bind = { text: slot };
      return validateDocument(doc);
    };
    expect(bound("pct").ok).toBe(true);
    expect(bound("day").ok).toBe(true);
    const refused = bound("rows");
    expect(refused.ok ? [] : refused.errors).toEqual([
      {
        path: "frames[0].layers[0].bind.text",
        message: 'slot "rows" is a list slot, but "text" needs a text slot',
      },
    ]);
  });
});

describe("Bindings: how a layer reads a number or a list", () => {
  const doc = {
    slots: [
      { name: "pct", type: "number" as const, default: 10 },
      { name: "rows", type: "list" as const, fields: [{ name: "label", type: "text" as const }] },
    ],
  };

  it("number(): the value given, else the slot's default (warning once), else the design value", () => {
    const warnings: { code: string }[] = [];
    const given = new Bindings(doc, { pct: 72 }, null);
    expect(given.number({ value: "pct" }, "value", 50, "frames[0].layers[0].value", "bar")).toEqual({
      value: 72,
      slot: "pct",
      path: "values.pct",
    });
    const fallback = new Bindings(doc, {}, warnings as never);
    expect(fallback.number({ value: "pct" }, "value", 50, "p", "bar").value).toBe(10);
    expect(fallback.number(undefined, "value", 50, "p", "bar").value).toBe(50);
    expect(warnings.map((w) => w.code)).toEqual(["slot_default_used"]);
    // Shown as text, a number is the text JavaScript writes for it.
    expect(given.resolve({ text: "pct" }, "text", "0", "p", "t").value).toBe("72");
  });

  it("list(): the items given, else the design's; forItem() binds item.<field>", () => {
    const rows = [{ label: "a" }, { label: "b" }];
    const bindings = new Bindings(doc, { rows }, null);
    expect(bindings.list({ data: "rows" }, "data", [], "p", "chart").value).toBe(rows);
    expect(
      new Bindings(doc, {}, null).list({ data: "rows" }, "data", [{ label: "z" }], "p", "c").value,
    ).toEqual([{ label: "z" }]);
    const second = bindings.forItem("rows", rows[1] as { label: string }, 1);
    expect(second.resolve({ text: "item.label" }, "text", "design", "p", "t")).toEqual({
      value: "b",
      slot: "rows",
      path: "values.rows[1].label",
    });
    expect(second.resolve({ text: "item.missing" }, "text", "design", "p", "t").value).toBe("design");
    expect(second.holds({ slot: "item.label", is: "non_empty" })).toBe(true);
  });
});
