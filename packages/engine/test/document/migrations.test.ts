import { describe, expect, it } from "vitest";
import { CURRENT_VERSION, type Migration, migrateDocument, migrations } from "../../src/document/migrate.ts";
import { validateDocument } from "../../src/document/validate.ts";
import { readJson, validDocument } from "./helpers.ts";

/** One fixture per historical version: `fixtures/v<N>.json`, a document written in that version's format. */
const fixture = (version: number) =>
  readJson(new URL(`./fixtures/v${version}.json`, import.meta.url)) as Record<string, unknown>;

/** The v3 -> v4 step alone (tested on its own below), for the documents that pass through it. */
const toV4 = (doc: Record<string, unknown>) => {
  const step = migrations.find((m) => m.from === 3);
  if (step === undefined) throw new Error("no 3 -> 4 step");
  return step.up(doc);
};

describe("migration registry", () => {
  it("is a contiguous chain from version 0 to CURRENT_VERSION", () => {
    expect(migrations.map((m) => [m.from, m.to])).toEqual(
      Array.from({ length: CURRENT_VERSION }, (_, i) => [i, i + 1]),
    );
  });

  it.each(migrations.map((m) => [m.from, m.to, m] as const))(
    "migration %i -> %i runs on its fixture and leaves it untouched",
    (from, to, migration) => {
      const input = fixture(from);
      const before = JSON.stringify(input);
      const output = migration.up(input);
      expect(output.version).toBe(to);
      expect(JSON.stringify(input)).toBe(before);
    },
  );

  it("runs every registered migration when migrating the oldest fixture", () => {
    const ran: number[] = [];
    const recording: Migration[] = migrations.map((m) => ({
      ...m,
      up: (doc) => {
        ran.push(m.from);
        return m.up(doc);
      },
    }));
    const result = migrateDocument(fixture(0), recording);
    expect(ran).toEqual(migrations.map((m) => m.from));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.fromVersion).toBe(0);
  });

  it.each(migrations.map((m) => [m.from] as const))(
    "a v%i fixture migrates to a valid current document",
    (from) => {
      const result = validateDocument(fixture(from));
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      expect(result.document.version).toBe(CURRENT_VERSION);
    },
  );
});

describe("v0 draft -> v1", () => {
  const expectedV1 = () =>
    readJson(new URL("./fixtures/v0.migrated.json", import.meta.url)) as Record<string, unknown>;

  it("produces exactly the expected v1 document (the v0 -> v1 step alone)", () => {
    const step = migrations.find((m) => m.from === 0);
    expect(step?.up(fixture(0))).toEqual(expectedV1());
  });

  it("arrives at the current version through v1 with nothing else changed", () => {
    const result = migrateDocument(fixture(0));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.document).toEqual(toV4({ ...expectedV1(), version: 3 }));
  });

  it("treats an explicit version 0 like a missing version", () => {
    const result = migrateDocument({ ...fixture(0), version: 0 });
    expect(result.ok && result.document.version).toBe(CURRENT_VERSION);
  });

  it("keeps malformed v0 fields so v1 validation names them at their new paths", () => {
    const v0 = fixture(0) as { layers: Record<string, unknown>[] };
    (v0.layers[1] as Record<string, unknown>).font_size = -4;
    (v0.layers[1] as Record<string, unknown>).glow = true;
    const result = validateDocument(v0);
    expect(result).toEqual({
      ok: false,
      errors: [
        { path: "frames[0].layers[1].glow", message: "is not a known property" },
        { path: "frames[0].layers[1].font.size", message: "must be > 0" },
      ],
    });
  });

  it("never throws on malformed drafts", () => {
    for (const draft of [
      { layers: "x" },
      { layers: [null, 3, { type: 5 }] },
      { layers: [{ type: "group", children: 7 }] },
    ]) {
      const result = validateDocument(draft);
      expect(result.ok).toBe(false);
    }
  });
});

describe("v1 -> v2", () => {
  it("only sets the version: every v1 value means the same in v2", () => {
    const v1 = fixture(1);
    const step = migrations.find((m) => m.from === 1);
    expect(step?.up(v1)).toEqual({ ...v1, version: 2 });
    expect(migrateDocument(v1)).toEqual({ ok: true, document: toV4({ ...v1, version: 3 }), fromVersion: 1 });
  });
});

describe("v2 -> v3", () => {
  it("only sets the version: every v2 value means the same in v3", () => {
    const v2 = fixture(2);
    const step = migrations.find((m) => m.from === 2);
    expect(step?.up(v2)).toEqual({ ...v2, version: 3 });
    expect(migrateDocument(v2)).toEqual({ ok: true, document: toV4({ ...v2, version: 3 }), fromVersion: 2 });
  });
});

describe("v3 -> v4", () => {
  type Layer = Record<string, unknown> & { layers?: Layer[] };
  type Doc = { frames: (Record<string, unknown> & { layers: Layer[] })[] };

  it("writes alpha 1 (the opaque slot colour v3 drew) for each colour binding that sets no alpha", () => {
    const v3 = fixture(3);
    const expected = structuredClone(v3) as unknown as Doc & Record<string, unknown>;
    expected.version = 4;
    const frame = expected.frames[0];
    const [tint, , title, members] = frame?.layers ?? [];
    if (frame === undefined || tint === undefined || title === undefined || members === undefined) {
      throw new Error("fixture changed");
    }
    // The frame's background; a fill and a tinted stroke (the tint kept); a text's colour, not its
    // text; a repeated item's colour field, not its text field. "kept" already says "design".
    frame.bind_colors = { background: { alpha: 1 } };
    tint.bind_colors = { "stroke.color": { alpha: 1, tint: 0.2 }, fill: { alpha: 1 } };
    title.bind_colors = { color: { alpha: 1 } };
    const dot = members.layers?.[0];
    if (dot === undefined) throw new Error("fixture changed");
    dot.bind_colors = { fill: { alpha: 1 } };
    expect(migrateDocument(v3)).toEqual({ ok: true, document: expected, fromVersion: 3 });
  });

  it("leaves bindings to unknown slots, malformed options and item fields outside a repeat alone", () => {
    const doc = {
      version: 3,
      slots: [{ name: "brand", type: "color" }],
      frames: [
        {
          name: "f",
          layers: [
            { id: "a", bind: { fill: "nowhere" } },
            { id: "b", bind: { fill: "brand" }, bind_colors: "opaque" },
            { id: "c", bind: { fill: "item.color" } },
            { id: "d", bind: { fill: "brand" }, bind_colors: { fill: 7 } },
          ],
        },
      ],
    };
    const before = JSON.stringify(doc);
    expect(toV4(doc)).toEqual({ ...doc, version: 4 });
    expect(JSON.stringify(doc)).toBe(before);
  });

  it("writes alpha 1 for the colours of named inline styles and duotone filters too", () => {
    const doc = {
      version: 3,
      slots: [
        { name: "brand", type: "color" },
        { name: "title", type: "text" },
      ],
      inline_styles: {
        em: { color: "#FF000080", bind: { color: "brand", background: "brand" } },
        tinted: {
          background: "#00000033",
          bind: { background: "brand" },
          bind_colors: { background: { tint: 0.4 } },
        },
        kept: { color: "#FF000080", bind: { color: "brand" }, bind_colors: { color: { alpha: "design" } } },
        plain: { weight: 700 },
        bind: { color: "#FF0000", bind: { color: "title" } },
      },
      frames: [
        {
          name: "f",
          layers: [
            {
              id: "photo",
              type: "image",
              filters: { duotone: { dark: "#000000", light: "#FFFFFF" } },
              bind: { "filters.duotone.dark": "brand" },
            },
            {
              id: "options",
              type: "image",
              filters: { duotone: { dark: "#000000", light: "#FFFFFF" } },
              bind: { "filters.duotone.dark": "brand", "filters.duotone.light": "brand" },
              bind_colors: { "filters.duotone.dark": { tint: 0.5 }, "filters.duotone.light": { alpha: 0.4 } },
            },
          ],
        },
      ],
    };
    const before = JSON.stringify(doc);
    const migrated = toV4(doc);
    expect(JSON.stringify(doc)).toBe(before);
    expect(migrated.inline_styles).toEqual({
      em: { ...doc.inline_styles.em, bind_colors: { color: { alpha: 1 }, background: { alpha: 1 } } },
      tinted: { ...doc.inline_styles.tinted, bind_colors: { background: { tint: 0.4, alpha: 1 } } },
      kept: doc.inline_styles.kept,
      plain: doc.inline_styles.plain,
      // A style named "bind" is a style, and its binding to a text slot is left for validation.
      bind: doc.inline_styles.bind,
    });
    const [photo, options] = (migrated.frames as { layers: Record<string, unknown>[] }[])[0]?.layers ?? [];
    expect(photo?.bind_colors).toEqual({ "filters.duotone.dark": { alpha: 1 } });
    // Version 3 applied no duotone options: they become what it drew, the slot's colour opaque.
    expect(options?.bind_colors).toEqual({
      "filters.duotone.dark": { alpha: 1 },
      "filters.duotone.light": { alpha: 1 },
    });
  });

  it("keeps a `__proto__` key of parsed JSON a plain property", () => {
    const doc = JSON.parse(
      '{"version":3,"slots":[{"name":"brand","type":"color"}],"frames":[{"name":"f","__proto__":{"x":1},"bind":{"background":"brand"}}]}',
    );
    const frame = (toV4(doc).frames as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(frame)).toBe(Object.prototype);
    expect(Object.hasOwn(frame, "__proto__")).toBe(true);
    expect(frame.bind_colors).toEqual({ background: { alpha: 1 } });
  });
});

describe("versions", () => {
  it("returns a current document as the same object, unchanged", () => {
    const doc = validDocument();
    const before = JSON.stringify(doc);
    const result = migrateDocument(doc);
    expect(result).toEqual({ ok: true, document: doc, fromVersion: CURRENT_VERSION });
    if (result.ok) expect(result.document).toBe(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it("refuses a version newer than this engine understands", () => {
    expect(migrateDocument({ ...validDocument(), version: CURRENT_VERSION + 1 })).toEqual({
      ok: false,
      errors: [
        {
          path: "version",
          message: `${CURRENT_VERSION + 1} is newer than the newest version this Pictor understands (${CURRENT_VERSION}); upgrade Pictor to open it`,
        },
      ],
    });
  });

  it.each([["1"], [1.5], [-1], [null]])("rejects the version %j", (version) => {
    expect(validateDocument({ ...validDocument(), version })).toEqual({
      ok: false,
      errors: [
        { path: "version", message: `must be a whole number (the current version is ${CURRENT_VERSION})` },
      ],
    });
  });

  it("asks for the version when a v1-shaped document lost it", () => {
    const { version: _dropped, ...doc } = validDocument();
    expect(validateDocument(doc)).toEqual({
      ok: false,
      errors: [{ path: "version", message: `is required (the current version is ${CURRENT_VERSION})` }],
    });
  });

  it("checks an object with nothing of either shape (say {}) as a current document: frames is required", () => {
    const result = validateDocument({});
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors).toContainEqual({ path: "frames", message: "is required" });
    expect(errors.some((e) => e.path.startsWith("frames["))).toBe(false);
    // A version-0 draft (top-level layers) still migrates.
    expect(migrateDocument({ layers: [] }).ok).toBe(true);
  });

  it("reports a registry gap instead of looping", () => {
    expect(migrateDocument({ layers: [] }, [])).toEqual({
      ok: false,
      errors: [{ path: "version", message: "no migration from version 0 is registered" }],
    });
  });

  it("reports a migration that throws", () => {
    const broken: Migration[] = [
      {
        from: 0,
        to: 1,
        up: () => {
          throw new Error("bad step");
        },
      },
    ];
    const result = migrateDocument({ layers: [] }, broken);
    expect(result).toEqual({
      ok: false,
      errors: [{ path: "", message: "migration from version 0 to 1 failed: Error: bad step" }],
    });
  });
});
