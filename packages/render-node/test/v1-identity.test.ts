import { expect } from "vitest";
import { describeExampleIdentity } from "./support/example-identity.ts";

/**
 * Document v2 acceptance: every v1 document renders byte-identically after migration. The fixture holds
 * the SHA-256 of the premultiplied RGBA of every v1 example template, every frame, at scales 1 and 2,
 * drawn by the engine of commit 36d9774 (the last one before document v2, run once from a git worktree
 * of that commit with the same fonts and prepared images). Today's engine draws each v1 example after
 * migrating it to the current version, and must produce the very same bytes.
 */

describeExampleIdentity({
  fixture: "v1-example-renders.json",
  title: "v1 documents render byte-identically after migration to the current version",
  coverageTitle: "covers every v1 example template",
  minTemplates: 6,
  expectSourceVersion: (version) => expect(version).toBe(1),
});
