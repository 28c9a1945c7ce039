import { describe, expect, it } from "vitest";
import { rowBody } from "../../src/cli/batch.ts";

const slots = new Map([
  ["title", "text"],
  ["raised", "number"],
  ["ends", "date"],
  ["donors", "list"],
]);
const body = (values: Record<string, string>) => rowBody({ line: 2, values }, "card", slots, undefined);

describe("pictor batch: a CSV row's cells as the slots' value fields", () => {
  it("a number slot's cell is a number, a date's is its text, a list's is its JSON items", () => {
    expect(
      body({ title: "Hi", raised: "7250.5", ends: "2026-12-24", donors: '[{"name":"Ada","amount":5}]' }),
    ).toEqual({
      body: {
        template: "card",
        modifications: [
          { name: "title", text: "Hi" },
          { name: "raised", number: 7250.5 },
          { name: "ends", date: "2026-12-24" },
          { name: "donors", items: [{ name: "Ada", amount: 5 }] },
        ],
      },
    });
  });

  it("says what is wrong with a cell that is not a number or not a JSON array", () => {
    expect(body({ raised: "lots" })).toEqual({ error: 'raised: "lots" is not a number' });
    expect(body({ donors: "Ada, Grace" })).toEqual({ error: "donors: not a JSON array of items" });
  });
});
