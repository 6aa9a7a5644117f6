import { IMAGE_UPLOAD_FIELD } from "@app/shared";
import type { FastifyRequest } from "fastify";
import type { Context } from "../trpc/context";
import { type Caller, pageAsList, queryValue, type RestRoute } from "./adapter";
import { specCongress, specCongressOf } from "./congresses";
import { jsonField, readForm, type UploadedFile } from "./form";

export const isAdmin = (ctx: Context) => ctx.user?.roles.includes("ROLE_ADMIN") ?? false;

/** An uploaded file as the input of `admin.images.upload` (no file: a form the procedure refuses). */
function uploadInput(file: UploadedFile | undefined): globalThis.FormData {
  const input = new globalThis.FormData();
  if (file) {
    input.set(IMAGE_UPLOAD_FIELD, new File([file.data], file.fileName, { type: file.mimeType }));
  }
  return input;
}

/** Reads the form after the role check, and uploads a picture (field newPicture) when there is one. */
async function formWithPicture<Input extends object>(
  caller: Caller,
  req: FastifyRequest,
  field: string,
): Promise<Input> {
  const form = await readForm(req);
  const data = jsonField<Input>(form, field);
  const file = form.files.find((f) => f.fieldName === "newPicture");
  return file ? { ...data, picture: (await caller.admin.images.upload(uploadInput(file))).fileName } : data;
}

/**
 * The administration paths of spec section 7: ROLE_ADMIN is checked before a form is read (the declared
 * role), and again by the procedures.
 */
export const adminRestRoutes: RestRoute[] = [
  {
    method: "POST",
    url: "/congress",
    role: "admin",
    handler: async (caller, req) =>
      specCongressOf(
        caller,
        await caller.admin.congresses.save(await formWithPicture(caller, req, "congressData")),
      ),
  },
  {
    method: "DELETE",
    url: "/congress/:id",
    role: "admin",
    handler: (caller, req) => caller.admin.congresses.delete({ id: req.params.id }),
  },
  {
    method: "POST",
    url: "/congress-package",
    role: "admin",
    handler: async (caller, req) =>
      caller.admin.packages.save(await formWithPicture(caller, req, "congressPackageData")),
  },
  {
    method: "DELETE",
    url: "/congress-package/:id",
    role: "admin",
    handler: (caller, req) => caller.admin.packages.delete({ id: req.params.id }),
  },
  {
    method: "GET",
    url: "/user",
    role: "admin",
    handler: async (caller, req, reply) =>
      pageAsList(
        reply,
        await caller.admin.users.list({
          name: queryValue(req, "name"),
          email: queryValue(req, "email"),
          page: queryValue(req, "page"),
        }),
      ),
  },
  {
    method: "POST",
    url: "/user",
    role: "admin",
    handler: async (caller, req) => caller.admin.users.save(jsonField(await readForm(req), "userData")),
  },
  {
    method: "DELETE",
    url: "/user/:id",
    role: "admin",
    handler: (caller, req) => caller.admin.users.delete({ id: req.params.id }),
  },
  {
    method: "GET",
    url: "/congress-content",
    role: "admin",
    handler: (caller, req) => caller.admin.contents.list({ search: queryValue(req, "search") }),
  },
  {
    method: "POST",
    url: "/congress-content",
    role: "admin",
    // the spec answers a saved content with the list of events
    handler: async (caller, req) => {
      await caller.admin.contents.save(jsonField(await readForm(req), "congressContentData"));
      return (await caller.admin.congresses.list()).map(specCongress);
    },
  },
  {
    method: "DELETE",
    url: "/congress-content/:id",
    role: "admin",
    handler: (caller, req) => caller.admin.contents.delete({ id: req.params.id }),
  },
  {
    method: "GET",
    url: "/mail-template",
    role: "admin",
    handler: (caller, req) =>
      caller.admin.mailTemplates.list({ congressId: queryValue(req, "congress") || null }),
  },
  {
    method: "POST",
    url: "/mail-template",
    role: "admin",
    handler: async (caller, req) =>
      caller.admin.mailTemplates.save(jsonField(await readForm(req), "mailTemplateData")),
  },
  {
    method: "POST",
    url: "/mail-template/copy",
    role: "admin",
    handler: async (caller, req) => {
      const { fields } = await readForm(req);
      const { copied } = await caller.admin.mailTemplates.copy({
        copy_from: fields.copy_from,
        copy_to: fields.copy_to,
      });
      return { title: "E-Mail-Templates", detail: "E-Mail-Templates wurden erfolgreich kopiert.", copied };
    },
  },
  {
    // the web app uploads a picture first (with progress) and then saves the form with its file name
    method: "POST",
    url: "/images",
    role: "admin",
    status: 201,
    handler: async (caller, req) => caller.admin.images.upload(uploadInput((await readForm(req)).files[0])),
  },
];
