import { describe, expect, it } from "vitest";
import { History } from "../src/model/history.ts";

/** A clock the test moves by hand. */
function clock() {
  let now = 0;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe("editor history", () => {
  it("undoes and redoes each set, and a new set drops the redo steps", () => {
    const h = new History("a");
    expect([h.canUndo, h.canRedo]).toEqual([false, false]);
    h.set("b");
    h.set("c");
    expect(h.undo()).toBe(true);
    expect(h.present).toBe("b");
    expect(h.canRedo).toBe(true);
    expect(h.redo()).toBe(true);
    expect(h.present).toBe("c");
    h.undo();
    h.set("d");
    expect(h.canRedo).toBe(false);
    expect(h.redo()).toBe(false);
    h.undo();
    h.undo();
    expect(h.present).toBe("a");
    expect(h.undo()).toBe(false);
  });

  it("coalesces edits of one key within a second into one step", () => {
    const c = clock();
    const h = new History("", c.now);
    for (const text of ["H", "He", "Hel"]) {
      h.set(text, "title:text");
      c.advance(400);
    }
    c.advance(700); // more than a second after the last keystroke: a new step
    h.set("Hello", "title:text");
    h.set("#FF0000", "title:color"); // another key: a new step at once
    h.undo();
    expect(h.present).toBe("Hello");
    h.undo();
    expect(h.present).toBe("Hel");
    h.undo();
    expect(h.present).toBe("");
  });

  it("makes a gesture one step at commit, and nothing when cancelled", () => {
    const h = new History(0);
    h.preview(1);
    h.preview(2);
    h.preview(3);
    expect(h.canUndo).toBe(false);
    h.commit();
    expect(h.present).toBe(3);
    h.undo();
    expect(h.present).toBe(0);
    h.redo();
    h.preview(4);
    h.preview(5);
    h.cancel(); // pointercancel: back to where the gesture started
    expect(h.present).toBe(3);
    h.undo();
    expect(h.present).toBe(0);
    expect(h.canUndo).toBe(false);
  });

  it("commits a gesture that changed nothing as no step, and a typing run ends at a gesture", () => {
    const c = clock();
    const h = new History("a", c.now);
    h.commit(); // a click on a handle: no preview
    expect(h.canUndo).toBe(false);
    h.set("ab", "t");
    h.preview("ab!");
    h.commit();
    h.set("ab!c", "t"); // same key, within the second, but after a gesture: a step of its own
    h.undo();
    expect(h.present).toBe("ab!");
  });

  it("starts over on reset", () => {
    const h = new History("a");
    h.set("b");
    h.reset("z");
    expect([h.present, h.canUndo, h.canRedo]).toEqual(["z", false, false]);
  });
});
