import { checkoutReturnMessage, MSG, REFUSALS } from "@app/shared";
import { describe, test } from "vitest";
import { page, userEvent } from "vitest/browser";
import { alerts } from "@/lib/alerts";
import { renderApp } from "@/test/app";
import { expectDialogAccessible } from "@/test/axe";
import { overview, takingPart } from "@/test/data";

/** The gated page of the e2e server's configuration (e2e/constants.ts): the server alone knows the paths. */
const GATED_PATH = "/e2e-paartherapie-7c1f9a";

/**
 * The global alert system's dialogs (alert-dialog.tsx), each over the page it shows on. Where the page opens
 * it by itself without an answer from the server, the page does; where it shows the server's refusal, the
 * test raises the dialog with that refusal's `{title, detail}` (REFUSALS in @app/shared, which the API
 * throws) the way the page does.
 */
describe("global alert dialogs pass axe", () => {
  test("Bestätigung fehlgeschlagen: a confirmation link without its parameters", async () => {
    await renderApp("/confirm-mail");
    await expectDialogAccessible(MSG.confirmMailFailed);
  });

  test("Nicht angemeldet: a gated page for an anonymous visitor", async () => {
    await renderApp(GATED_PATH, {
      fill: (api, client) => {
        client.setQueryData(api.gated.resolve.queryKey({ path: GATED_PATH }), { kind: "couple-therapy" });
      },
    });
    await expectDialogAccessible(MSG.notLoggedIn);
  });

  test("Falsches Passwort: the gated page's refusal of a wrong password", async () => {
    await renderApp(GATED_PATH, {
      as: "participant",
      fill: (api, client) => {
        client.setQueryData(api.gated.resolve.queryKey({ path: GATED_PATH }), { kind: "couple-therapy" });
        client.setQueryData(api.gated.getStatus.queryKey({ path: GATED_PATH }), {
          kind: "couple-therapy",
          packageId: 3,
          unlocked: false,
          closedNotice: null,
        });
      },
    });
    const password = page.getByLabelText("Passwort");
    await userEvent.fill(password, "falsch");
    // the server's answer to the submit (gated-page.tsx shows it with alerts.error)
    void alerts.error(REFUSALS.wrongPackagePassword);
    await expectDialogAccessible(MSG.wrongPassword);
  });

  describe("over the overview", () => {
    const atOverview = () =>
      renderApp("/", {
        as: "participant",
        fill: (api, client) =>
          client.setQueryData(api.congress.getOverview.queryKey(), overview([takingPart()])),
      });

    test("Kongress nicht gefunden: the content page's refusal of an unknown event", async () => {
      await atOverview();
      void alerts.error(REFUSALS.congressNotFound);
      await expectDialogAccessible(MSG.congressNotFound);
    });

    test("Veranstaltung noch nicht gestartet: the content page's refusal before the first day", async () => {
      await atOverview();
      void alerts.error(REFUSALS.congressNotStarted);
      await expectDialogAccessible(REFUSALS.congressNotStarted.title);
    });

    test("Produkt nicht angeboten: the purchase page's refusal of a product without a checkout", async () => {
      await atOverview();
      void alerts.error(REFUSALS.productNotOffered);
      await expectDialogAccessible(REFUSALS.productNotOffered.title);
    });

    test("Danke für den Kauf: the thanks once the payment of a package is in", async () => {
      await atOverview();
      const thanks = checkoutReturnMessage("pac", {
        name: "Aufzeichnungen Psychotherapie 2026",
        unlocked: { ticket: false, packages: ["Aufzeichnungen Psychotherapie 2026"] },
        eventHasPackage: true,
      });
      if (!thanks) {
        throw new Error("a paid package has its thanks");
      }
      void alerts.successDialog(thanks.title, thanks.detail);
      await expectDialogAccessible(thanks.title);
    });
  });
});
