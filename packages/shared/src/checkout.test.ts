import { describe, expect, it } from "vitest";
import { buildCheckoutUrl, buildCustom, parseCustom } from "./checkout";

const buyer = {
  email: "erika+test@example.com",
  firstname: "Erika Maria",
  lastname: "Müller",
  digistoreHash: "abc123",
};

describe("buildCheckoutUrl", () => {
  it("appends product id and URL-encoded buyer data with custom", () => {
    const url = new URL(
      buildCheckoutUrl({
        productUrl: "https://checkout.test/product",
        productId: 4711,
        id: 5,
        category: "pac",
        buyer,
      }),
    );
    expect(url.origin + url.pathname).toBe("https://checkout.test/product/4711");
    expect(url.searchParams.get("email")).toBe("erika+test@example.com");
    expect(url.searchParams.get("first_name")).toBe("Erika Maria");
    expect(url.searchParams.get("last_name")).toBe("Müller");
    expect(url.searchParams.get("custom")).toBe("uid-abc123|pid-5|cat-pac");
    expect(url.search).toContain("email=erika%2Btest%40example.com");
  });

  it("passes the voucher and other extra parameters on, but not display-only or reserved keys", () => {
    const url = new URL(
      buildCheckoutUrl({
        productUrl: "https://checkout.test/product/",
        productId: 1,
        id: 2,
        category: "ticpac",
        buyer,
        extraParameters: {
          voucher: "FRUEH",
          aff: "partner&x=1",
          crosssellDescription: "Text",
          crosssellLink: "/x",
          email: "evil@example.com",
          empty: "",
        },
      }),
    );
    expect(url.searchParams.get("voucher")).toBe("FRUEH");
    expect(url.searchParams.get("aff")).toBe("partner&x=1");
    expect(url.searchParams.has("crosssellDescription")).toBe(false);
    expect(url.searchParams.has("crosssellLink")).toBe(false);
    expect(url.searchParams.getAll("email")).toEqual(["erika+test@example.com"]);
    expect(url.searchParams.has("empty")).toBe(false);
  });
});

describe("parseCustom", () => {
  it("reads the return and the notification forms", () => {
    expect(parseCustom("pid-12|cat-tic")).toEqual({ pid: 12, cat: "tic" });
    expect(parseCustom(buildCustom("a1b2", 3, "ticpac"))).toEqual({ uid: "a1b2", pid: 3, cat: "ticpac" });
  });

  it.each([
    null,
    "",
    "pid-0|cat-tic",
    "pid--1|cat-tic",
    "pid-1.5|cat-tic",
    "pid-99999999999999999999|cat-tic",
    "pid-1|cat-xyz",
    "pid-1",
    "cat-pac",
    "pid-1|pid-2|cat-pac",
    "pid-1|cat-pac|foo-bar",
    "uid-<script>|pid-1|cat-pac",
    "__proto__-1|pid-1|cat-pac",
    `pid-1|cat-pac|uid-${"a".repeat(600)}`,
  ])("rejects %j", (value) => {
    expect(parseCustom(value)).toBeNull();
  });
});
