import { MSG } from "@app/shared";
import { describe, expect, test } from "vitest";
import { page, userEvent } from "vitest/browser";
import { type Fill, renderApp } from "@/test/app";
import { expectDialogAccessible } from "@/test/axe";
import {
  adminCongress,
  adminPackage,
  adminPage,
  contentRow,
  mailTemplate,
  twoFactorOn,
  userRecord,
  userRow,
} from "@/test/data";

/**
 * The administration's create and edit dialogs and its delete questions, opened with the buttons an admin
 * clicks on a section whose tables come from the query cache (ADR 0138).
 */
const section = (tab: string, fill: Fill) =>
  renderApp(`/admin/manage/${tab}`, {
    as: "admin",
    fill: (api, client) => {
      client.setQueryData(api.admin.twoFactor.getStatus.queryKey(), twoFactorOn());
      client.setQueryData(api.admin.congresses.list.queryKey(), [adminCongress()]);
      fill(api, client);
    },
  });

/** the edit or delete button of a table's row (its name in the button's name) */
const rowButton = (table: string, row: string, action: "bearbeiten" | "löschen") =>
  page.getByRole("table", { name: table }).getByRole("button", { name: `${row} ${action}` });

const button = (name: string) => page.getByRole("button", { name, exact: true });

describe("admin dialogs pass axe", () => {
  describe("Veranstaltungen", () => {
    const events = () =>
      section("events", (api, client) =>
        client.setQueryData(api.admin.congresses.getPage.queryKey({ page: 1 }), adminPage([adminCongress()])),
      );

    test("Neue Veranstaltung", async () => {
      await events();
      await userEvent.click(button("Neue Veranstaltung"));
      await expectDialogAccessible("Neue Veranstaltung");
    });

    test("Neue Veranstaltung als Webinar", async () => {
      await events();
      await userEvent.click(button("Neue Veranstaltung"));
      await userEvent.click(page.getByRole("dialog").getByRole("checkbox", { name: "Webinar" }));
      await expect.element(page.getByLabelText("Webinar-Link")).toBeVisible();
      await expectDialogAccessible("Neue Veranstaltung");
    });

    test("Neue Veranstaltung mit Fortbildungspunkten (Webinar)", async () => {
      await events();
      await userEvent.click(button("Neue Veranstaltung"));
      const dialog = page.getByRole("dialog");
      await userEvent.click(dialog.getByRole("checkbox", { name: "Webinar" }));
      await userEvent.click(dialog.getByRole("checkbox", { name: "Fortbildungspunkte vergeben" }));
      await expect.element(dialog.getByLabelText("Webinar-Dauer in Minuten")).toBeVisible();
      await expectDialogAccessible("Neue Veranstaltung");
    });

    test("Veranstaltung bearbeiten", async () => {
      await events();
      await userEvent.click(rowButton("Veranstaltungen", adminCongress().title, "bearbeiten"));
      await expectDialogAccessible("Veranstaltung bearbeiten");
    });

    test("Veranstaltung löschen?", async () => {
      await events();
      await userEvent.click(rowButton("Veranstaltungen", adminCongress().title, "löschen"));
      await expectDialogAccessible(MSG.deleteConfirmTitle);
    });
  });

  describe("Kongresspakete", () => {
    const packages = () =>
      section("packages", (api, client) =>
        client.setQueryData(api.admin.packages.getPage.queryKey({ page: 1 }), adminPage([adminPackage()])),
      );

    test("Neues Kongresspaket", async () => {
      await packages();
      await userEvent.click(button("Neues Kongresspaket"));
      await userEvent.click(page.getByRole("dialog").getByRole("button", { name: "Parameter hinzufügen" }));
      await expectDialogAccessible("Neues Kongresspaket");
    });

    test("Kongresspaket bearbeiten", async () => {
      await packages();
      await userEvent.click(rowButton("Kongresspakete", adminPackage().name, "bearbeiten"));
      await expectDialogAccessible("Kongresspaket bearbeiten");
    });

    test("Kongresspaket löschen?", async () => {
      await packages();
      await userEvent.click(rowButton("Kongresspakete", adminPackage().name, "löschen"));
      await expectDialogAccessible(MSG.deleteConfirmTitle);
    });
  });

  describe("Benutzer:innen", () => {
    const users = () =>
      section("users", (api, client) => {
        client.setQueryData(
          api.admin.users.list.queryKey({ name: "", email: "", page: 1 }),
          adminPage([userRow()]),
        );
        client.setQueryData(api.admin.users.get.queryKey({ id: userRow().id }), userRecord());
      });
    const name = `${userRow().firstname} ${userRow().lastname}`;

    test("Benutzer:in bearbeiten", async () => {
      await users();
      await userEvent.click(rowButton("Benutzer:innen", name, "bearbeiten"));
      await expect.element(page.getByRole("dialog").getByLabelText("Vorname")).toBeVisible();
      await expectDialogAccessible("Benutzer:in bearbeiten");
    });

    test("Benutzer:in löschen?", async () => {
      await users();
      await userEvent.click(rowButton("Benutzer:innen", name, "löschen"));
      await expectDialogAccessible(MSG.deleteConfirmTitle);
    });
  });

  describe("Videoinhalte", () => {
    const contents = () =>
      section("contents", (api, client) =>
        client.setQueryData(
          api.admin.contents.getPage.queryKey({ search: "", page: 1 }),
          adminPage([contentRow()]),
        ),
      );
    const name = `Inhalt von ${contentRow().congress.title}`;

    test("Inhalt hinzufügen", async () => {
      await contents();
      await userEvent.click(button("Inhalt hinzufügen"));
      await expectDialogAccessible("Neuer Kongressinhalt");
    });

    test("Inhalt bearbeiten", async () => {
      await contents();
      await userEvent.click(rowButton("Videoinhalte", name, "bearbeiten"));
      await expectDialogAccessible("Kongressinhalt bearbeiten");
    });

    test("Inhalt löschen?", async () => {
      await contents();
      await userEvent.click(rowButton("Videoinhalte", name, "löschen"));
      await expectDialogAccessible(MSG.deleteConfirmTitle);
    });
  });

  describe.each(["package", "ticket"] as const)("Bestellung anlegen (%s-orders)", (kind) => {
    test("with a person found and chosen", async () => {
      await section(`${kind}-orders`, (api, client) => {
        client.setQueryData(api.orders.list.queryKey({ search: "", page: 1, kind }), adminPage([]));
        client.setQueryData(api.admin.packages.list.queryKey(), [adminPackage()]);
        client.setQueryData(
          api.admin.users.list.queryKey({ name: "", email: "example.com", page: 1 }),
          adminPage([userRow()]),
        );
      });
      await userEvent.click(button("Bestellung anlegen"));
      const dialog = page.getByRole("dialog");
      await userEvent.fill(dialog.getByLabelText("Personen suchen (E-Mail)"), "example.com");
      await userEvent.click(dialog.getByRole("list", { name: "Suchergebnisse" }).getByRole("button").first());
      await expect
        .element(dialog.getByRole("list", { name: "Ausgewählte Personen" }))
        .toHaveTextContent(userRow().email);
      await expectDialogAccessible(
        kind === "package" ? "Paketbestellung anlegen" : "Ticketbestellung anlegen",
      );
    });
  });

  describe("E-Mail-Templates", () => {
    const templates = () =>
      section("mail-templates", (api, client) =>
        client.setQueryData(
          api.admin.mailTemplates.getPage.queryKey({ congressId: null, page: 1 }),
          adminPage([mailTemplate()]),
        ),
      );
    const title = `Vorlage „${mailTemplate().name}“ bearbeiten`;

    test("E-Mail-Template bearbeiten", async () => {
      await templates();
      await userEvent.click(rowButton("E-Mail-Templates", mailTemplate().name, "bearbeiten"));
      // the editor loads with the dialog
      await expect.element(page.getByRole("dialog").getByRole("button", { name: "Link" })).toBeVisible();
      await expectDialogAccessible(title);
    });

    test("Link einfügen (Editor)", async () => {
      await templates();
      await userEvent.click(rowButton("E-Mail-Templates", mailTemplate().name, "bearbeiten"));
      await userEvent.click(page.getByRole("dialog", { name: title }).getByRole("button", { name: "Link" }));
      await expectDialogAccessible("Link einfügen");
    });
  });
});
