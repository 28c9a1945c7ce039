import type { StackLayerT, TemplateDocumentT } from "@pictor/engine";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { toModifications } from "../src/model/modifications.ts";
import { repeatListOf } from "../src/model/repeat-scope.ts";

const donors = {
  name: "donors",
  type: "list" as const,
  fields: [
    { name: "name", type: "text" as const, required: true },
    { name: "amount", type: "number" as const },
  ],
};

function document(): TemplateDocumentT {
  const row: StackLayerT = {
    id: "row",
    type: "stack",
    direction: "row",
    x: 0,
    y: 0,
    width: 300,
    height: 30,
    layers: [
      {
        id: "name",
        type: "text",
        x: 0,
        y: 0,
        width: 200,
        height: 30,
        text: "",
        font: { family: "Inter", size: 16 },
        color: "#111111",
        bind: { text: "item.name" },
      },
    ],
  };
  return {
    version: 4,
    key: "list",
    name: "List",
    slots: [donors, { name: "raised", type: "number" }, { name: "ends", type: "date" }],
    frames: [
      {
        name: "main",
        width: 400,
        height: 400,
        layers: [
          {
            id: "list",
            type: "stack",
            x: 0,
            y: 0,
            width: 300,
            height: 300,
            repeat: { slot: "donors", max: 5 },
            layers: [row],
          },
          {
            id: "outside",
            type: "shape",
            shape: "rectangle",
            x: 0,
            y: 0,
            width: 10,
            height: 10,
            fill: "#000000",
          },
        ],
      },
    ],
  } as TemplateDocumentT;
}

describe("editor: number, date and list slots, repeats", () => {
  it("the document the editor builds is valid", () => {
    const result = validateDocument(document());
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it("finds the list a layer is repeated for (what its item.<field> bindings offer)", () => {
    const doc = document();
    const layers = doc.frames[0]?.layers ?? [];
    expect(repeatListOf(doc, layers, "name")?.name).toBe("donors");
    expect(repeatListOf(doc, layers, "row")?.name).toBe("donors");
    expect(repeatListOf(doc, layers, "list")).toBeNull();
    expect(repeatListOf(doc, layers, "outside")).toBeNull();
  });

  it("sends preview values as the API's number, date and items fields, leaving out mistyped ones", () => {
    const items = [{ name: "Ada", amount: 5 }];
    expect(toModifications(document(), { donors: items, raised: 72, ends: "2026-11-28" })).toEqual([
      { name: "donors", items },
      { name: "raised", number: 72 },
      { name: "ends", date: "2026-11-28" },
    ]);
    expect(toModifications(document(), { donors: "x", raised: "72" })).toEqual([]);
  });
});
