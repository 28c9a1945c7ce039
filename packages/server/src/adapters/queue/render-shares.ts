/**
 * Render-thread time each account used lately, for placing tasks on render threads of two priorities
 * (thread-priority.ts). While several accounts render, the one that used the most goes to the
 * background threads first, so a tenant sending the heaviest renders the limits allow runs niced and
 * the others' renders get a normal-priority thread and the CPU first, whether or not anyone waits for
 * them (a worker process cannot tell).
 */
export const RENDER_SHARE_HALF_LIFE_MS = 5000;

/** Below this, an account's decayed time counts as no recent rendering (ms). */
const FORGOTTEN_MS = 1;

interface Usage {
  /** Finished render time, decayed to `at`. */
  ms: number;
  at: number;
  /** Start times of its tasks still running. */
  running: number[];
}

export class RenderShares {
  readonly #usage = new Map<string, Usage>();
  readonly #halfLifeMs: number;
  readonly #now: () => number;

  constructor(halfLifeMs = RENDER_SHARE_HALF_LIFE_MS, now: () => number = () => performance.now()) {
    this.#halfLifeMs = halfLifeMs;
    this.#now = now;
  }

  /** A task of `accountId` starts; the function returned ends it and counts its time. */
  started(accountId: string): () => void {
    const usage = this.#usage.get(accountId) ?? { ms: 0, at: this.#now(), running: [] };
    this.#usage.set(accountId, usage);
    const start = this.#now();
    usage.running.push(start);
    return () => {
      const at = usage.running.indexOf(start);
      if (at < 0) return;
      usage.running.splice(at, 1);
      const now = this.#now();
      usage.ms = this.#decayed(usage, now) + (now - start);
      usage.at = now;
    };
  }

  /**
   * Where `accountId` stands among the accounts that rendered lately (running tasks counted to now):
   * `alone` when no other did, `heaviest` when it used more render time than each of them (its tasks
   * should take the background threads first), else `lighter`. Forgets accounts whose time decayed.
   */
  standing(accountId: string): "alone" | "heaviest" | "lighter" {
    const now = this.#now();
    let own = 0;
    let others = 0;
    let heaviestOther = 0;
    for (const [account, usage] of this.#usage) {
      const ms = this.#current(usage, now);
      if (ms < FORGOTTEN_MS && usage.running.length === 0) {
        this.#usage.delete(account);
        continue;
      }
      if (account === accountId) own = ms;
      else {
        others++;
        heaviestOther = Math.max(heaviestOther, ms);
      }
    }
    if (others === 0) return "alone";
    return own > heaviestOther ? "heaviest" : "lighter";
  }

  #current(usage: Usage, now: number): number {
    let ms = this.#decayed(usage, now);
    for (const start of usage.running) ms += now - start;
    return ms;
  }

  #decayed(usage: Usage, now: number): number {
    return usage.ms * 2 ** (-(now - usage.at) / this.#halfLifeMs);
  }
}
