import { expect } from "vitest";
import { describeExampleIdentity } from "./support/example-identity.ts";

/**
 * Document v3 acceptance: every example template (v1 and v2) renders byte-identically after migration
 * to v3. The fixture holds the SHA-256 of the premultiplied RGBA of every example, every frame, at
 * scales 1 and 2, drawn by the engine of commit b1c8e8e (the last one before document v3, with the
 * shipped fonts and icons; scripts/v2-example-renders.ts). Today's engine draws each example after
 * migrating it to the current version, and must produce the very same bytes.
 */

describeExampleIdentity({
  fixture: "v2-example-renders.json",
  title: "every example renders byte-identically after migration to the current version",
  coverageTitle: "covers every example template",
  minTemplates: 12,
  expectSourceVersion: (version) => expect(version).toBeLessThan(3),
});
