import { describe, expect, it } from "vitest";
import { RenderShares } from "../../src/adapters/queue/render-shares.ts";

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("RenderShares (which account's renders go to the background threads)", () => {
  it("names no account heaviest while one renders alone", () => {
    const c = clock();
    const shares = new RenderShares(5000, c.now);
    const end = shares.started("a");
    c.advance(2000);
    end();
    expect(shares.othersRendering("a")).toBe(false);
    expect(shares.othersRendering("b")).toBe(true);
    expect(shares.isHeaviest("a")).toBe(false);
  });

  it("names the account that used more render time lately, counting running tasks to now", () => {
    const c = clock();
    const shares = new RenderShares(5000, c.now);
    shares.started("hostile");
    c.advance(50);
    const light = shares.started("light");
    c.advance(10);
    light();
    expect(shares.othersRendering("light")).toBe(true);
    expect(shares.isHeaviest("hostile")).toBe(true);
    expect(shares.isHeaviest("light")).toBe(false);
  });

  it("lets the time decay with its half-life, so an account that stopped loses the title", () => {
    const c = clock();
    const shares = new RenderShares(1000, c.now);
    const a = shares.started("a");
    c.advance(400);
    a();
    const b = shares.started("b");
    c.advance(100);
    b();
    expect(shares.isHeaviest("a")).toBe(true);
    // Four half-lives later a's 400 ms count about 23 and b's 100 about 6: 30 ms more of b outweigh a.
    c.advance(4000);
    const b2 = shares.started("b");
    c.advance(30);
    b2();
    expect(shares.isHeaviest("b")).toBe(true);
    expect(shares.isHeaviest("a")).toBe(false);
  });

  it("forgets accounts whose time decayed to nothing", () => {
    const c = clock();
    const shares = new RenderShares(100, c.now);
    const a = shares.started("a");
    c.advance(10);
    a();
    const b = shares.started("b");
    c.advance(10);
    b();
    expect(shares.othersRendering("a")).toBe(true);
    c.advance(10_000);
    expect(shares.othersRendering("a")).toBe(false);
    expect(shares.isHeaviest("a")).toBe(false);
  });
});
