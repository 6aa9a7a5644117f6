import { ERROR_CODES, MSG, REFUSALS } from "@app/shared";
import { describe, expect, it } from "vitest";
import { ERROR_MAP, refuse, toErrorResponse } from "./app-error";

describe("ERROR_MAP: the {title, detail} of a code without a text of its own", () => {
  it.each(ERROR_CODES)("%s: the detail is not the title", (code) => {
    const { title, detail } = ERROR_MAP[code];
    expect(detail.trim()).not.toBe("");
    expect(detail).not.toBe(title);
  });

  it.each(ERROR_CODES.filter((code) => code !== "INTERNAL"))(
    "%s: an expected refusal never claims an internal server error",
    (code) => {
      expect(ERROR_MAP[code].detail).not.toBe(MSG.defaultErrorDetail);
    },
  );

  it("INTERNAL keeps the spec's default texts (section 8)", () => {
    expect(ERROR_MAP.INTERNAL).toMatchObject({
      title: MSG.defaultErrorTitle,
      detail: MSG.defaultErrorDetail,
    });
  });
});

describe("refuse", () => {
  it.each(Object.entries(REFUSALS))(
    "%s answers its code's status with its own title and detail",
    (_name, r) => {
      const { status, body } = toErrorResponse(refuse(r, "for the log"));
      expect(status).toBe(ERROR_MAP[r.code].status);
      expect(body).toEqual({ title: r.title, detail: r.detail });
    },
  );
});
