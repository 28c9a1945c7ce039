import { describe, expect, it } from "vitest";
import { poolMeasurer } from "../../src/adapters/queue/pool-measurer.ts";
import { testTemplate } from "../api/support.ts";
import { useTempWorkerPool } from "../support/worker-pool.ts";

const temp = useTempWorkerPool("pictor-measurer-", 2);

const request = (accountId: string) => ({
  accountId,
  documentKey: "tpl_measure@1",
  document: testTemplate() as never,
  frames: ["main"],
  values: { title: "measured" },
  scale: 1,
});

describe("preflight measurements on the render threads (pool-measurer.ts)", () => {
  it("measures one preflight of an account at a time and never takes the last render thread", async () => {
    const measurer = poolMeasurer(temp.pool);
    // Two render threads: one preflight at once, whoever sends it.
    const first = measurer.measure(request("acct_a"));
    const sameAccount = await measurer.measure(request("acct_a"));
    const otherAccount = await measurer.measure(request("acct_b"));
    expect(sameAccount).toMatchObject({ ok: false, code: "unavailable" });
    expect(sameAccount.ok === false && sameAccount.message).toMatch(/Another preflight of this account/);
    expect(otherAccount).toMatchObject({ ok: false, code: "unavailable" });
    expect(otherAccount.ok === false && otherAccount.message).toMatch(/render threads are busy/);
    expect(await first).toMatchObject({ ok: true });
    // Once it is done, the next one measures.
    expect(await measurer.measure(request("acct_b"))).toMatchObject({ ok: true });
  });
});
