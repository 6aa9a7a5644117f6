import { MAIL_CATALOGUE, MAIL_NAMES, type RenderedMail, renderMail } from "@app/mail";

/** Every mail of the catalogue with its built-in default and sample data, as the mail job renders it. */
export async function renderCatalogue(): Promise<Record<string, RenderedMail>> {
  const rendered: Record<string, RenderedMail> = {};
  for (const name of MAIL_NAMES) {
    const mail = MAIL_CATALOGUE[name];
    rendered[name] = await renderMail(
      { subject: mail.defaultSubject, content: mail.defaultContent },
      mail.sample,
    );
  }
  return rendered;
}
