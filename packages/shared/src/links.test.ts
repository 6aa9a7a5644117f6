import { describe, expect, it } from "vitest";
import { isAppPath, isWebAddress, linkTarget } from "./links";

describe("links a page may put into an href", () => {
  // [typed, what a page links (null: nothing), a path of this app]
  const rows: [string, string | null, boolean][] = [
    ["/congress-package-purchase/5", "/congress-package-purchase/5", true],
    ["/", "/", true],
    ["/kongresspaket?ref=paket-2#kaufen", "/kongresspaket?ref=paket-2#kaufen", true],
    [" /congress-package-purchase/5\n", "/congress-package-purchase/5", true],
    ["https://example.com/angebot", "https://example.com/angebot", false],
    ["HTTP://EXAMPLE.COM", "HTTP://EXAMPLE.COM", false],
    ["javascript:alert(1)", null, false],
    ["java\tscript:alert(1)", null, false],
    ["data:text/html,<script>alert(1)</script>", null, false],
    ["vbscript:msgbox(1)", null, false],
    ["kongresspaket", null, false],
    ["congress-package-purchase/5", null, false],
    ["//evil.example", null, false],
    ["/\\evil.example", null, false],
    ["\\\\evil.example", null, false],
    ["/\t/evil.example", null, false],
    ["/\n/evil.example", null, false],
    ["/a b", null, false],
    ["https:evil.example", null, false],
    ["https:/evil.example", null, false],
    ["https://", null, false],
    ["https://ex\tample.com", null, false],
    ["ftp://example.com/datei", null, false],
    ["", null, false],
  ];
  it.each(rows)("%j is linked as %j", (typed, linked, path) => {
    expect(linkTarget(typed)).toBe(linked);
    if (linked !== null) {
      expect(isAppPath(linked)).toBe(path);
      expect(isWebAddress(linked)).toBe(!path);
    }
  });

  it("nothing is no link", () => {
    expect(linkTarget(null)).toBeNull();
    expect(linkTarget(undefined)).toBeNull();
  });
});
