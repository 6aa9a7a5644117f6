import { MSG } from "@app/shared";
import { describe, test } from "vitest";
import { page, userEvent } from "vitest/browser";
import { renderApp } from "@/test/app";
import { expectDialogAccessible } from "@/test/axe";
import { overview, profile, takingPart } from "@/test/data";

/** The visitor's own dialogs, opened with the button a visitor clicks (ADR 0138). */
describe("visitor dialogs pass axe", () => {
  test("Teilnahme stornieren?: the question of the overview's card", async () => {
    const event = takingPart();
    await renderApp("/", {
      as: "participant",
      fill: (api, client) => client.setQueryData(api.congress.getOverview.queryKey(), overview([event])),
    });
    await userEvent.click(
      page.getByRole("article", { name: event.title }).getByRole("button", { name: "Teilnahme stornieren" }),
    );
    await expectDialogAccessible(MSG.participationCancelTitle);
  });

  test("Konto endgültig löschen?: the profile's question with the password", async () => {
    await renderApp("/profile", {
      as: "participant",
      fill: (api, client) => {
        client.setQueryData(api.account.getProfile.queryKey(), profile());
        client.setQueryData(api.account.listConsents.queryKey(), []);
        client.setQueryData(api.certificate.listMine.queryKey(), []);
      },
    });
    await userEvent.click(page.getByRole("button", { name: "Konto löschen …" }));
    await expectDialogAccessible("Konto endgültig löschen?");
  });
});
