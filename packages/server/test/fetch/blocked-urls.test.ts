import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { OutboundError } from "../../src/ports/safe-fetch.ts";
import { fakeDns, type RunningServer, startHttpServer, v4, v6 } from "./loopback-servers.ts";

// reliability-matrix.md "Outbound URLs": every form of a non-public target is
// refused before a socket is opened. The receiver listens dual-stack on `::`,
// so 127.0.0.1, ::1, 0.0.0.0, :: and ::ffff:127.0.0.1 would all reach it if
// the guard let them through; it must count zero requests.

let receiver: RunningServer;
beforeAll(async () => {
  receiver = await startHttpServer("::", (_req, res) => res.end("reached"));
});
afterAll(async () => {
  await receiver.close();
});

const dns = fakeDns({
  "public.example.com": [v4("93.184.216.34")],
  "metadata.google.internal": [v4("169.254.169.254")],
  "ten.example.com": [v4("10.1.2.3")],
  "loop.example.com": [v4("127.0.0.1")],
  "aaaa-only-ula.example.com": [v6("fd00::1")],
  "aaaa-only-loop.example.com": [v6("::1")],
  "aaaa-only-mapped.example.com": [v6("::ffff:169.254.169.254")],
  "mixed.example.com": [v4("93.184.216.34"), v4("192.168.1.1")],
  "cgnat.example.com": [v4("100.64.0.1")],
  "linklocal6.example.com": [v6("fe80::1")],
});

function guard() {
  return createSafeFetch({ allowlist: [], lookup: dns.lookup });
}

async function expectBlocked(url: string): Promise<void> {
  const safe = guard();
  const verdict = await safe.check(url);
  expect(verdict, url).toMatchObject({ ok: false });
  const error = await safe.fetch(url, { timeoutMs: 2000 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(OutboundError);
  expect((error as OutboundError).code, url).toBe("blocked");
}

describe("loopback and unspecified in every spelling", () => {
  const forms = [
    "127.0.0.1",
    "localhost",
    "[::1]",
    "0.0.0.0",
    "[::]",
    "127.1",
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:ffff:7f00:1]",
    "[64:ff9b::7f00:1]",
    "127.0.0.1.",
    "LOCALHOST",
    "api.localhost",
  ];
  for (const host of forms) {
    it(`refuses http://${host}:<receiver port>/ and sends nothing`, async () => {
      await expectBlocked(`http://${host}:${receiver.port}/`);
      expect(receiver.hits).toEqual([]);
    });
  }
});

describe("cloud metadata endpoints", () => {
  for (const url of [
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata.google.internal./computeMetadata/v1/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[::ffff:169.254.169.254]/",
  ]) {
    it(`refuses ${url}`, () => expectBlocked(url));
  }
});

describe("private, shared, benchmarking, multicast and local IPv6 ranges", () => {
  for (const host of [
    "10.0.0.1",
    "10.255.255.254",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.0.1",
    "100.64.0.1",
    "100.127.255.254",
    "198.18.0.1",
    "198.19.255.254",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "240.0.0.1",
    "[fc00::1]",
    "[fd12:3456::1]",
    "[fe80::1]",
    "[febf::1]",
    "[ff02::1]",
    "[2002:a00:1::]", // 6to4 wrapping 10.0.0.1
    "[2001:0:4136:e378:8000:63bf:f5ff:fffe]", // Teredo, client 10.0.0.1 (inverted bits)
    "[64:ff9b::a9fe:a9fe]",
    "[::7f00:1]", // deprecated IPv4-compatible form
  ]) {
    it(`refuses http://${host}/`, () => expectBlocked(`http://${host}/`));
  }
});

describe("host names judged on every resolved address", () => {
  for (const name of [
    "ten.example.com",
    "loop.example.com",
    "aaaa-only-ula.example.com",
    "aaaa-only-loop.example.com",
    "aaaa-only-mapped.example.com",
    "mixed.example.com",
    "cgnat.example.com",
    "linklocal6.example.com",
  ]) {
    it(`refuses ${name}`, async () => {
      await expectBlocked(`http://${name}:${receiver.port}/`);
      expect(receiver.hits).toEqual([]);
    });
  }

  it("names the reason without sending a request", async () => {
    expect(await guard().check("http://ten.example.com/")).toEqual({
      ok: false,
      reason: "host does not resolve to a public address",
    });
  });

  it("accepts a host that resolves only to public addresses", async () => {
    expect(await guard().check("https://public.example.com/image.png")).toEqual({ ok: true });
    expect(await guard().check("https://93.184.216.34:8443/x")).toEqual({ ok: true });
    expect(await guard().check("http://[2606:4700::6810:85e5]/")).toEqual({ ok: true });
    expect(await guard().check("http://[::ffff:93.184.216.34]/")).toEqual({ ok: true });
  });

  it("does not ask DNS about names blocked by name", async () => {
    const asked = dns.asked.length;
    await guard().check("http://metadata.google.internal/");
    await guard().check("http://printer.local/");
    await guard().check("http://intranet/");
    expect(dns.asked.length).toBe(asked);
  });

  it("says the same for a name that does not exist as for one resolving to a private address (no DNS oracle)", async () => {
    const safe = guard();
    const missing = await safe.check("http://nowhere.example.com/");
    expect(missing).toEqual({ ok: false, reason: "host does not resolve to a public address" });
    expect(await safe.check("http://ten.example.com/")).toEqual(missing);
    const failure = (url: string) =>
      safe.fetch(url).then(
        () => null,
        (e: OutboundError) => ({ code: e.code, message: e.message, described: e.describe("the image") }),
      );
    const nowhere = await failure("http://nowhere.example.com/");
    expect(nowhere).toMatchObject({
      code: "blocked",
      message: "outbound URL blocked: host does not resolve to a public address",
    });
    for (const name of [
      "ten.example.com",
      "loop.example.com",
      "aaaa-only-ula.example.com",
      "mixed.example.com",
    ]) {
      expect(await failure(`http://${name}/`), name).toEqual(nowhere);
    }
  });

  it("keeps the explicit reason for a literal private address (no DNS asked, nothing to leak)", async () => {
    expect(await guard().check("http://10.1.2.3/")).toEqual({ ok: false, reason: "address is not public" });
  });
});

describe("URL tricks are judged on the WHATWG-parsed URL", () => {
  it("refuses userinfo that hides the real host", () =>
    expectBlocked(`http://public.example.com@127.0.0.1:${receiver.port}/`));
  it("refuses credentials even on a public host", () => expectBlocked("http://user:pw@public.example.com/"));
  it("treats backslashes as slashes, so the host is 127.0.0.1", () =>
    expectBlocked(`http:\\\\127.0.0.1:${receiver.port}\\x`));
  it("judges http://public.example.com\\@127.0.0.1/ on its real host (public.example.com)", async () => {
    expect(await guard().check("http://public.example.com\\@127.0.0.1/")).toEqual({ ok: true });
  });
  it("refuses tab/newline-smuggled hosts the same way", () => expectBlocked("http://127.0.0.\n1/"));
  for (const url of [
    "file:///etc/passwd",
    "gopher://public.example.com:70/_GET",
    "data:text/plain,hello",
    "ftp://public.example.com/",
    "ws://public.example.com/",
    "javascript:alert(1)",
    "//public.example.com/relative",
    "not a url",
  ]) {
    it(`refuses ${JSON.stringify(url)}`, () => expectBlocked(url));
  }
});

describe("ports", () => {
  for (const port of [0, 21, 22, 25, 111, 445, 1023, 6379, 6667, 11211]) {
    it(`refuses port ${port} on a public host`, () => expectBlocked(`http://public.example.com:${port}/`));
  }
  for (const port of [80, 443, 1024, 8080, 8443, 65535]) {
    it(`accepts port ${port} on a public host`, async () => {
      expect(await guard().check(`http://public.example.com:${port}/`)).toEqual({ ok: true });
    });
  }
});
