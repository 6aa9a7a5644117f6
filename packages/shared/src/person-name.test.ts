import { describe, expect, it } from "vitest";
import { ZUserUpdateInput } from "./admin";
import { ZRegisterInput } from "./auth";
import { ZCertificateIssuerInput } from "./certificates";
import { isNameCharacter, MSG_NAME, NAME_LETTER_RANGES } from "./person-name";

/** The one rule for the names of people (ADR 0128): what registration and admin edits take. */

const MESSAGE = MSG_NAME.invalid;

const register = (firstname: string, lastname = "Muster") =>
  ZRegisterInput.safeParse({
    firstname,
    lastname,
    email: "erika@example.com",
    password: "sicheres-Passwort-1",
    dataProtection: true,
  });
const adminEdit = (lastname: string) =>
  ZUserUpdateInput.safeParse({
    id: 1,
    firstname: "Erika",
    lastname,
    email: "erika@example.com",
    active: true,
    admin: false,
  });

const ACCEPTED = [
  "Łukasz Żółć",
  "Şükrü Ğ İı",
  "Nguyễn Thị Ánh",
  "Γιώργος Παπαδόπουλος",
  "Дмитрий Шостакович",
  "Ґанна Їжакевич",
  "小龍 李",
  "佐々木 ひなた",
  "マリー",
  "김민준",
  "O'Brien",
  "O’Brien",
  "Jean-Luc",
  "Dr. med. Anna",
  "Kealiʻi",
  "Ɗanjuma Ɛkua",
];

const REFUSED = [
  "🎓",
  "Anna 🎓",
  "Anna\u0007",
  "An\u202Ena",
  ...["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"].map(
    (c) => `Anna${c}Maria`,
  ),
  "Anna\u200EMaria",
  "Anna\u200BMaria",
  "Anna\tMaria",
  "Anna & Bob",
  "Anna1",
  "Anna_Maria",
  "anna@example.com",
  "Anna™",
  "Anna ♥",
  "Anna, Maria",
  // scripts the certificate does not print (ADR 0128)
  "محمد",
  "דוד",
  "अनिल",
];

describe("names of people", () => {
  it.each(ACCEPTED)("takes %s at registration and in the admin's edit", (name) => {
    expect(register(name).success).toBe(true);
    expect(adminEdit(name).success).toBe(true);
  });

  it.each(REFUSED.map((name) => [JSON.stringify(name), name]))(
    "refuses %s at registration and in the admin's edit, with the field's message",
    (_, name) => {
      const registered = register(name);
      expect(registered.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["firstname", MESSAGE],
      ]);
      const edited = adminEdit(name);
      expect(edited.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["lastname", MESSAGE]]);
    },
  );

  it("keeps names as NFC with single spaces: trimmed, runs of spaces (also no-break and ideographic) made one", () => {
    expect(register("  Anna   Maria ").data?.firstname).toBe("Anna Maria");
    expect(register("Anna\u00A0Maria").data?.firstname).toBe("Anna Maria");
    expect(register("李\u3000小龍").data?.firstname).toBe("李 小龍");
    expect(register("Zoe\u0308").data?.firstname).toBe("Zo\u00EB");
  });

  it("still asks for a missing name with the spec's message", () => {
    expect(register("   ").error?.issues[0]?.message).toBe("Vorname ist ein Pflichtfeld");
    expect(adminEdit("").error?.issues[0]?.message).toBe("Nachname ist ein Pflichfeld");
  });
});

describe("the characters of a name", () => {
  const all = Array.from({ length: 0x110000 }, (_, c) => c)
    .filter((c) => c < 0xd800 || c > 0xdfff)
    .map((c) => String.fromCodePoint(c));

  // a walk of every code point takes a few seconds on a busy machine
  it("are letters and marks of the listed blocks, and space, hyphen, apostrophes and period", {
    timeout: 60_000,
  }, () => {
    const other = all.filter((c) => isNameCharacter(c) && !/[\p{L}\p{Mn}]/u.test(c));
    expect(other).toEqual([" ", "'", "-", ".", "\u2019"]);
    const outside = all.filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return (
        isNameCharacter(c) &&
        !other.includes(c) &&
        !NAME_LETTER_RANGES.some(([from, to]) => code >= from && code <= to)
      );
    });
    expect(outside).toEqual([]);
  });

  it("never include a control, format, symbol, number or emoji character", { timeout: 60_000 }, () => {
    expect(
      all.filter((c) => isNameCharacter(c) && /[\p{C}\p{S}\p{N}\p{Extended_Pictographic}]/u.test(c)),
    ).toEqual([]);
  });
});

describe("the organiser's name and the signatory on the certificate", () => {
  it("take free text, but no control characters", () => {
    const issuer = {
      name: "Institut für Psychotherapie Łódź & Köln",
      signatory: "Dr. Zofia Wójcik, Leitung",
    };
    expect(ZCertificateIssuerInput.safeParse(issuer).success).toBe(true);
    for (const bad of ["Anna\u202EMaria", "Anna\u0007", "\u2066Anna\u2069"]) {
      const refused = ZCertificateIssuerInput.safeParse({ name: bad, signatory: bad });
      expect(refused.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["name", MSG_NAME.controls],
        ["signatory", MSG_NAME.controls],
      ]);
    }
  });
});
