// CPU time and bytes of processes and threads from /proc (Linux only): what bench:scale charges to each
// role per render. Times are in clock ticks of 10 ms (CLK_TCK is 100 on Linux), read as utime + stime.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10;

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  /** utime + stime, ms. */
  self: number;
  /** cutime + cstime, ms: children that exited and were waited for (postgres backends that ended). */
  children: number;
}

function readStat(path: string): Stat | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  // comm may contain spaces and parentheses: the fields after it start after the last ')'.
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const fields = text.slice(close + 2).split(" ");
  // fields[0] is field 3 (state); utime is field 14, stime 15, cutime 16, cstime 17.
  const n = (field: number) => Number(fields[field - 3]);
  return {
    pid: Number(text.slice(0, text.indexOf(" "))),
    comm,
    ppid: n(4),
    self: (n(14) + n(15)) * TICK_MS,
    children: (n(16) + n(17)) * TICK_MS,
  };
}

function allProcesses(): Stat[] {
  const out: Stat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(`/proc/${entry}/stat`);
    if (stat) out.push(stat);
  }
  return out;
}

/** `root` and every live descendant. */
function tree(root: number, all: Stat[]): Stat[] {
  const byParent = new Map<number, Stat[]>();
  for (const s of all) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const out: Stat[] = [];
  const visit = (pid: number) => {
    for (const child of byParent.get(pid) ?? []) {
      out.push(child);
      visit(child.pid);
    }
  };
  const self = all.find((s) => s.pid === root);
  if (self) out.push(self);
  visit(root);
  return out;
}

/**
 * CPU ms used so far by each process tree: the root's own time, the time of its children that exited
 * (cutime, for postgres backends that came and went), and every live descendant's time. A difference
 * of two readings is the tree's CPU in between (a child that exits in between moves its time from the
 * live sum into the root's cutime, so it is counted once).
 */
export function treeCpuMs(roots: number[]): number {
  const all = allProcesses();
  let ms = 0;
  for (const root of roots) {
    for (const s of tree(root, all)) ms += s.self + (s.pid === root ? s.children : 0);
  }
  return ms;
}

/**
 * CPU ms of one process, split into its threads named `name`, its main thread and the rest. The rest
 * is the process's total less those two, not a sum over live threads: libvips ends idle threads of
 * its pool, and a thread that ended takes its time out of /proc/<pid>/task (the process's own stat
 * keeps it), which made a phase's sum of the others come out negative.
 */
export function threadCpuMs(pid: number, name: string): { named: number; main: number; other: number } {
  const out = { named: 0, main: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (!stat) continue;
    if (stat.comm === name) out.named += stat.self;
    else if (stat.pid === pid) out.main += stat.self;
  }
  out.other = (readStat(`/proc/${pid}/stat`)?.self ?? 0) - out.named - out.main;
  return out;
}

/** Bytes read and written through system calls (sockets and files) by the trees of `roots`. */
export function treeIoBytes(roots: number[]): number {
  const all = allProcesses();
  let bytes = 0;
  for (const root of roots) {
    for (const s of tree(root, all)) {
      try {
        const io = readFileSync(`/proc/${s.pid}/io`, "utf8");
        const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, "m").exec(io)?.[1] ?? 0);
        bytes += field("rchar") + field("wchar");
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return bytes;
}

/** The threads `threadGroupsCpuMs` reports by name: render threads, libvips' image work, V8's helpers (GC). */
export const THREAD_GROUPS = ["pictor-render", "libvips worker", "V8Worker"] as const;

/**
 * CPU ms of one process: its main thread, each of THREAD_GROUPS (their live threads summed) and the
 * rest (the process's total less those, so threads that ended, such as idle libvips ones, count
 * there). A difference of two readings splits a phase's CPU by who spent it.
 */
export function threadGroupsCpuMs(pid: number): Record<string, number> {
  const out: Record<string, number> = { main: 0 };
  for (const group of THREAD_GROUPS) out[group] = 0;
  let named = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (!stat) continue;
    const key =
      stat.pid === pid ? "main" : (THREAD_GROUPS as readonly string[]).includes(stat.comm) ? stat.comm : null;
    if (key === null) continue;
    out[key] = (out[key] ?? 0) + stat.self;
    named += stat.self;
  }
  out.other = (readStat(`/proc/${pid}/stat`)?.self ?? 0) - named;
  return out;
}
