import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { copyPayload, parsePayload, pastePayload, serialisePayload } from "../src/model/clipboard.ts";
import { doc, sq } from "./support.ts";

describe("editor clipboard (document JSON)", () => {
  it("copies layers with the slots they are bound to and pastes them into another document", () => {
    const source = doc(
      [{ ...sq("a", 10, 10), bind: { fill: "accent" } }, sq("b", 0, 0)],
      [
        { name: "accent", type: "color", default: "#FF0000" },
        { name: "unused", type: "text" },
      ],
    );
    const payload = copyPayload(source, 0, ["a"]);
    if (!payload) throw new Error("nothing copied");
    expect(parsePayload(serialisePayload(payload))).toEqual(payload);
    expect(parsePayload("hello")).toBeNull();
    expect(payload.slots.map((s) => s.name)).toEqual(["accent"]);
    const target = doc([sq("a", 0, 0)], [{ name: "accent", type: "text" }]);
    const pasted = pastePayload(target, 0, payload);
    expect(pasted.ids).toEqual(["a-copy"]);
    // The target's "accent" is a text slot: the colour binding is dropped, not broken.
    expect(pasted.doc.frames[0]?.layers[1]).toEqual({ ...sq("a-copy", 10, 10) });
    const fresh = pastePayload(doc([]), 0, payload);
    expect(fresh.doc.slots).toEqual([{ name: "accent", type: "color", default: "#FF0000" }]);
    expect(validateDocument(fresh.doc).ok).toBe(true);
  });
});
