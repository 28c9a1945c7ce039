import { createHmac } from "node:crypto";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import { signCallback, verifyCallback } from "../src/index.ts";

const secret = "whsec_current_0123456789";
const previous = "whsec_previous_9876543210";
const body =
  '{"event":"render.completed","event_id":"evt_1","id":"rnd_1","metadata":{"warnings":[]},"text":"Grüße 🎨"}';

describe("signCallback", () => {
  it("produces sha256= and 64 lowercase hex of HMAC-SHA256 over the UTF-8 bytes", () => {
    const signature = signCallback(body, secret);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signature).toBe(
      `sha256=${createHmac("sha256", secret).update(Buffer.from(body, "utf8")).digest("hex")}`,
    );
  });

  it("signs a string and its UTF-8 bytes identically", () => {
    expect(signCallback(new TextEncoder().encode(body), secret)).toBe(signCallback(body, secret));
  });

  it("is accepted by an independent verifier (@octokit/webhooks-methods)", async () => {
    expect(await octokitVerify(secret, body, signCallback(body, secret))).toBe(true);
    expect(await octokitVerify(previous, body, signCallback(body, secret))).toBe(false);
  });

  it("refuses an empty secret", () => {
    expect(() => signCallback(body, "")).toThrow(TypeError);
  });
});

describe("verifyCallback", () => {
  const good = signCallback(body, secret);

  it("accepts the signature of the exact bytes, as a string or as bytes", () => {
    expect(verifyCallback(body, good, secret)).toBe(true);
    expect(verifyCallback(Buffer.from(body, "utf8"), good, secret)).toBe(true);
  });

  it("rejects a tampered body, including re-serialised JSON with the same meaning", () => {
    expect(verifyCallback(body.replace("rnd_1", "rnd_2"), good, secret)).toBe(false);
    expect(verifyCallback(JSON.stringify(JSON.parse(body), null, 2), good, secret)).toBe(false);
    expect(verifyCallback(`${body} `, good, secret)).toBe(false);
  });

  it("rejects a tampered signature, a wrong length, uppercase hex and a missing prefix", () => {
    const lastDigit = good.at(-1) === "0" ? "1" : "0";
    expect(verifyCallback(body, good.slice(0, -1) + lastDigit, secret)).toBe(false);
    expect(verifyCallback(body, good.slice(0, -1), secret)).toBe(false);
    expect(verifyCallback(body, `${good}0`, secret)).toBe(false);
    expect(verifyCallback(body, `sha256=${good.slice(7).toUpperCase()}`, secret)).toBe(false);
    expect(verifyCallback(body, good.slice(7), secret)).toBe(false);
    expect(verifyCallback(body, `sha1=${good.slice(7)}`, secret)).toBe(false);
    expect(verifyCallback(body, "", secret)).toBe(false);
  });

  it("rejects a missing header", () => {
    expect(verifyCallback(body, undefined, secret)).toBe(false);
    expect(verifyCallback(body, null, secret)).toBe(false);
  });

  it("rejects a signature made with another secret", () => {
    expect(verifyCallback(body, signCallback(body, "whsec_other"), secret)).toBe(false);
  });

  it("accepts the current or the previous secret during a rotation grace period", () => {
    expect(verifyCallback(body, signCallback(body, previous), [secret, previous])).toBe(true);
    expect(verifyCallback(body, good, [secret, previous])).toBe(true);
    expect(verifyCallback(body, signCallback(body, "whsec_other"), [secret, previous])).toBe(false);
  });

  it("agrees with @octokit/webhooks-methods on tampered input", async () => {
    const cases: Array<[string, string]> = [
      [body, good],
      [body.replace("evt_1", "evt_2"), good],
      [body, `sha256=${good.slice(7).toUpperCase()}`],
    ];
    for (const [payload, signature] of cases) {
      const independent = await octokitVerify(secret, payload, signature).catch(() => false);
      expect(verifyCallback(payload, signature, secret)).toBe(independent);
    }
  });

  it("throws for a missing secret: a configuration bug, not an untrusted delivery", () => {
    expect(() => verifyCallback(body, good, [])).toThrow(TypeError);
    expect(() => verifyCallback(body, good, "")).toThrow(TypeError);
  });
});
