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
    expect(shares.standing("a")).toBe("alone");
    expect(shares.standing("b")).not.toBe("alone");
    expect(shares.standing("a")).not.toBe("heaviest");
  });

  it("names the account that used more render time lately, counting running tasks to now", () => {
    const c = clock();
    const shares = new RenderShares(5000, c.now);
    shares.started("hostile");
    c.advance(50);
    const light = shares.started("light");
    c.advance(10);
    light();
    expect(shares.standing("light")).not.toBe("alone");
    expect(shares.standing("hostile")).toBe("heaviest");
    expect(shares.standing("light")).toBe("lighter");
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
    expect(shares.standing("a")).toBe("heaviest");
    // Four half-lives later a's 400 ms count about 23 and b's 100 about 6: 30 ms more of b outweigh a.
    c.advance(4000);
    const b2 = shares.started("b");
    c.advance(30);
    b2();
    expect(shares.standing("b")).toBe("heaviest");
    expect(shares.standing("a")).not.toBe("heaviest");
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
    expect(shares.standing("a")).not.toBe("alone");
    c.advance(10_000);
    expect(shares.standing("a")).toBe("alone");
    expect(shares.standing("a")).not.toBe("heaviest");
  });
});
