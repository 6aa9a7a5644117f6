import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { digistoreSignature, verifyDigistoreSignature } from "./signature";

const PASSPHRASE = "s3cret-passphrase";
const VECTOR =
  "9A23DE2603A33D17D935908580B5DB90C452DE8E68556E2A4AD96F1C3EC3BFD2EE3AE47B819B96286812224FBCED943D0ACF48C8C20CA57570E2263B6ABAF099";

describe("Digistore24 IPN signature", () => {
  it("matches the known test vector", () => {
    expect(digistoreSignature({ order_id: "ORD-1", product_id: "42" }, PASSPHRASE)).toBe(VECTOR);
  });

  it("ignores the signature fields themselves, empty values and the order of the fields", () => {
    const signed = digistoreSignature(
      { product_id: "42", sha_sign: "X", SHASIGN: "Y", voucher_code: "", order_id: "ORD-1" },
      PASSPHRASE,
    );
    expect(signed).toBe(VECTOR);
  });

  it("accepts the right signature in any letter case and refuses everything else", () => {
    const fields = { order_id: "ORD-1", product_id: "42" };
    expect(verifyDigistoreSignature({ ...fields, sha_sign: VECTOR }, PASSPHRASE)).toBe(true);
    expect(verifyDigistoreSignature({ ...fields, sha_sign: VECTOR.toLowerCase() }, PASSPHRASE)).toBe(true);
    expect(verifyDigistoreSignature({ ...fields, SHASIGN: VECTOR }, PASSPHRASE)).toBe(true);
    expect(verifyDigistoreSignature({ ...fields, product_id: "43", sha_sign: VECTOR }, PASSPHRASE)).toBe(
      false,
    );
    expect(verifyDigistoreSignature({ ...fields, sha_sign: VECTOR }, "other")).toBe(false);
    expect(verifyDigistoreSignature({ ...fields, sha_sign: VECTOR.slice(0, 20) }, PASSPHRASE)).toBe(false);
    expect(verifyDigistoreSignature(fields, PASSPHRASE)).toBe(false);
    expect(verifyDigistoreSignature({ ...fields, sha_sign: VECTOR }, "")).toBe(false);
  });

  it("accepts accounts that sign with uppercased keys", () => {
    const fields = { order_id: "ORD-1", product_id: "42", custom: "uid-abc|pid-1|cat-pac" };
    const upper = digistoreSignature(fields, PASSPHRASE, { uppercaseKeys: true });
    expect(upper).not.toBe(digistoreSignature(fields, PASSPHRASE));
    expect(verifyDigistoreSignature({ ...fields, sha_sign: upper }, PASSPHRASE)).toBe(true);
  });

  it("sorts by byte order and signs UTF-8 names and values, including + / = in custom", () => {
    // byte order puts upper case before lower case and ä (0xC3 0xA4) after z
    const fields = { b: "1", Z: "2", ä: "3", custom: "uid-a+b/c=|pid-1|cat-tic", buyer_first_name: "Jürgen" };
    const text = ["Z=2", "b=1", "buyer_first_name=Jürgen", "custom=uid-a+b/c=|pid-1|cat-tic", "ä=3"]
      .map((pair) => `${pair}${PASSPHRASE}`)
      .join("");
    const signed = digistoreSignature(fields, PASSPHRASE);
    expect(signed).toBe(createHash("sha512").update(text, "utf8").digest("hex").toUpperCase());
    expect(verifyDigistoreSignature({ ...fields, sha_sign: signed }, PASSPHRASE)).toBe(true);
    expect(
      verifyDigistoreSignature(
        { ...fields, custom: "uid-a b/c=|pid-1|cat-tic", sha_sign: signed },
        PASSPHRASE,
      ),
    ).toBe(false);
  });
});
