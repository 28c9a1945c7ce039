import { describe, expect, it } from "vitest";
import type { TemplateDocumentT } from "../../src/document/schema.ts";
import { MAX_TEXT_LENGTH, validateSlotValues } from "../../src/document/values.ts";

const template: Pick<TemplateDocumentT, "slots"> = {
  slots: [
    { name: "headline", type: "text", max_length: 40 },
    { name: "body", type: "text" },
    { name: "photo", type: "image" },
    { name: "brand", type: "color" },
  ],
};

describe("validateSlotValues", () => {
  it("accepts valid values of every type and returns them", () => {
    const values = { headline: "Hi", body: "", photo: "https://example.com/a.jpg", brand: "#ff0066" };
    expect(validateSlotValues(template, values)).toEqual({ ok: true, values });
  });

  it("accepts an empty object: unnamed slots keep the design's content", () => {
    expect(validateSlotValues(template, {})).toEqual({ ok: true, values: {} });
  });

  it("reports an unknown slot with kind unknown_slot and its name", () => {
    expect(validateSlotValues(template, { headlin: "Hi" })).toEqual({
      ok: false,
      errors: [
        {
          path: "values.headlin",
          kind: "unknown_slot",
          slot: "headlin",
          message: 'slot "headlin" does not exist (did you mean "headline"?)',
        },
      ],
    });
  });

  it.each([["#FFF"], ["red"], ["#GGGGGG"], ["#FF0066AA"], ["FF0066"], [" #FF0066"], [""]])(
    "rejects the colour %j",
    (colour) => {
      const result = validateSlotValues(template, { brand: colour });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.errors).toHaveLength(1);
        expect(result.errors[0]).toMatchObject({ path: "values.brand", kind: "invalid", slot: "brand" });
        expect(result.errors[0]?.message).toMatch(/^must be a colour in the form "#RRGGBB"/);
      }
    },
  );

  it.each([
    [42, "a number"],
    [null, "null"],
    [["a"], "an array"],
    [{ text: "a" }, "an object"],
    [true, "a boolean"],
  ])("rejects %j as a value (wrong type)", (value, described) => {
    expect(validateSlotValues(template, { headline: value })).toEqual({
      ok: false,
      errors: [
        {
          path: "values.headline",
          kind: "invalid",
          slot: "headline",
          message: `must be a string (text slot), not ${described}`,
        },
      ],
    });
  });

  it("enforces the slot's max_length in characters, counting an emoji once", () => {
    expect(validateSlotValues(template, { headline: "😀".repeat(40) }).ok).toBe(true);
    expect(validateSlotValues(template, { headline: "x".repeat(41) })).toEqual({
      ok: false,
      errors: [
        {
          path: "values.headline",
          kind: "invalid",
          slot: "headline",
          message: "must be at most 40 characters (the slot's max_length)",
        },
      ],
    });
  });

  it("rejects 1 MB of text quickly with the 10,000 character limit", () => {
    const result = validateSlotValues(template, { body: "a".repeat(1024 * 1024) });
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          path: "values.body",
          kind: "invalid",
          slot: "body",
          message: `must be at most ${MAX_TEXT_LENGTH} characters`,
        },
      ],
    });
    expect(validateSlotValues(template, { body: "a".repeat(MAX_TEXT_LENGTH) }).ok).toBe(true);
  });

  it("rejects an empty or oversized image reference", () => {
    const empty = validateSlotValues(template, { photo: "" });
    const long = validateSlotValues(template, { photo: `https://x.test/${"a".repeat(2100)}` });
    expect(empty.ok || long.ok).toBe(false);
    if (!empty.ok)
      expect(empty.errors[0]?.message).toBe("must not be empty (an image URL or asset reference)");
    if (!long.ok) expect(long.errors[0]?.message).toBe("must be at most 2048 characters");
  });

  it("reports every problem, unknown slots and invalid values together", () => {
    const result = validateSlotValues(template, { brand: "red", nope: "x", headline: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.map((e) => [e.path, e.kind])).toEqual([
        ["values.brand", "invalid"],
        ["values.nope", "unknown_slot"],
        ["values.headline", "invalid"],
      ]);
    }
  });

  it.each([[null], [[]], ["headline=Hi"], [7]])("rejects %j as the values container", (values) => {
    expect(validateSlotValues(template, values)).toEqual({
      ok: false,
      errors: [
        { path: "values", kind: "invalid", slot: "", message: "must be an object of slot name -> value" },
      ],
    });
  });

  it("treats __proto__ and constructor as unknown slot names, without pollution", () => {
    const values = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": "x", "toString": "y"}');
    const result = validateSlotValues(template, values);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.map((e) => e.slot)).toEqual(["__proto__", "constructor", "toString"]);
  });

  it("keeps a slot literally named __proto__ as a plain key", () => {
    const odd: Pick<TemplateDocumentT, "slots"> = { slots: [{ name: "__proto__", type: "text" }] };
    const result = validateSlotValues(odd, JSON.parse('{"__proto__": "hello"}'));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.getPrototypeOf(result.values)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(result.values, "__proto__")?.value).toBe("hello");
    }
  });

  it("uses the given base path, e.g. sample", () => {
    const result = validateSlotValues(template, { "my slot": "x" }, "sample");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.path).toBe('sample["my slot"]');
  });

  it("bounds the error list for a body with thousands of unknown keys", () => {
    const values = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, "x"]));
    const result = validateSlotValues(template, values);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toHaveLength(100);
  });
});

describe("validateSlotValues never throws", () => {
  it("answers an object whose getter throws", () => {
    const values = Object.defineProperty({}, "headline", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const result = validateSlotValues(template, values);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.message).toBe("could not be read: Error: boom");
  });
});
