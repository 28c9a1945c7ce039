import { describe, expect, it } from "vitest";
import { alphaChoice, FIRST_SET_ALPHA, withAlphaChoice } from "../src/model/color-binding-alpha.ts";

describe("the alpha choice of a bound colour", () => {
  it("shows the design colour's alpha for a binding that sets none (the document default)", () => {
    expect(alphaChoice({})).toBe("design");
    expect(alphaChoice({ tint: 0.3 })).toBe("design");
    expect(alphaChoice({ alpha: "design" })).toBe("design");
  });

  it("shows alpha 1 (what a migrated v3 binding says) as opaque, any other number as set", () => {
    expect(alphaChoice({ alpha: 1, tint: -0.2 })).toBe("opaque");
    expect(alphaChoice({ alpha: 0.4 })).toBe("set");
    expect(alphaChoice({ alpha: 0 })).toBe("set");
  });

  it("writes the default as no alpha, keeps the tint, and starts a set alpha below 1", () => {
    expect(withAlphaChoice({ alpha: 1, tint: 0.2 }, "design")).toEqual({ tint: 0.2 });
    expect(withAlphaChoice({ tint: 0.2 }, "opaque")).toEqual({ tint: 0.2, alpha: 1 });
    expect(withAlphaChoice({}, "set")).toEqual({ alpha: FIRST_SET_ALPHA });
    expect(withAlphaChoice({ alpha: 0.3 }, "set")).toEqual({ alpha: 0.3 });
    expect(withAlphaChoice({ alpha: 1 }, "set")).toEqual({ alpha: FIRST_SET_ALPHA });
  });
});
