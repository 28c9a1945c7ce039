import { expect } from "vitest";
import { describeExampleIdentity } from "./support/example-identity.ts";

/**
 * Document v4 acceptance: every example template written as v3 renders byte-identically after
 * migration to v4 (where a colour binding without an alpha keeps the design colour's alpha, and the
 * migration writes `"alpha": 1` to keep the opaque slot colour v3 drew). The fixture holds the SHA-256
 * of the premultiplied RGBA of every v3 example, every frame, at scales 1 and 2, drawn by the engine
 * of commit d148a06 (the last one before document v4; scripts/v3-example-renders.ts). The v1 and v2
 * examples are held to the engine before v3 by v2-identity.test.ts, which migrates them through every
 * step to the current version as well.
 */

describeExampleIdentity({
  fixture: "v3-example-renders.json",
  title: "every v3 example renders byte-identically after migration to v4",
  coverageTitle: "covers every v3 example template",
  minTemplates: 3,
  expectSourceVersion: (version) => expect(version).toBe(3),
});
