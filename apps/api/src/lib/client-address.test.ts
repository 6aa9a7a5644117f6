import { describe, expect, it } from "vitest";
import { clientKey } from "./client-address";

describe("clientKey (ADR 0090: IPv6 neighbours are one client)", () => {
  it("keeps an IPv4 address on its own", () => {
    expect(clientKey("198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey("198.51.100.8")).not.toBe(clientKey("198.51.100.7"));
  });

  it("reads an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(clientKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey("::FFFF:c633:6407")).toBe("198.51.100.7");
    expect(clientKey("0:0:0:0:0:ffff:198.51.100.7")).toBe("198.51.100.7");
  });

  it("keys every address of one /64 alike, however it is written", () => {
    const keys = [
      "2001:db8:1:2::1",
      "2001:db8:1:2:abcd:ef01:2345:6789",
      "2001:0DB8:0001:0002:0000:0000:0000:0001",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2::192.0.2.1",
    ].map(clientKey);
    expect(new Set(keys)).toEqual(new Set(["2001:db8:1:2::/64"]));
  });

  it("keeps two /64s apart, also neighbouring ones and the short forms", () => {
    expect(clientKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1")).toBe("fe80:0:0:0::/64");
  });

  it("leaves what is no address as it is", () => {
    expect(clientKey("")).toBe("");
    expect(clientKey("unknown")).toBe("unknown");
  });
});
