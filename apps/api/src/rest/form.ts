import { MSG } from "@app/shared";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../lib/app-error";

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  data: Buffer;
}

export interface FormData {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/**
 * Reads the fields of a request whatever the client sent: multipart (the spec's forms), url-encoded
 * form fields or a JSON object. Only plain own keys are kept.
 */
export async function readForm(req: FastifyRequest): Promise<FormData> {
  const fields: Record<string, string> = Object.create(null);
  const files: UploadedFile[] = [];
  if (req.isMultipart()) {
    try {
      for await (const part of req.parts()) {
        if (part.type === "file") {
          files.push({
            fieldName: part.fieldname,
            fileName: part.filename,
            mimeType: part.mimetype,
            data: await part.toBuffer(),
          });
        } else if (part.valueTruncated) {
          // busboy cuts a field at `fieldSize`; a cut value must never be taken for the whole one
          throw new AppError("PAYLOAD_TOO_LARGE", `field ${part.fieldname} over the field size limit`);
        } else {
          fields[part.fieldname] = String(part.value);
        }
      }
    } catch (error) {
      throw unreadable(error);
    }
    return { fields, files };
  }
  const body = req.body;
  if (body && typeof body === "object" && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body)) {
      fields[key] = typeof value === "string" ? value : JSON.stringify(value);
    }
  }
  return { fields, files };
}

/**
 * The multipart plugin's own errors carry a 4xx status (limits, prototype keys) and stay as they are; what
 * busboy throws on a broken body (no boundary, cut off, bad part headers) has none and would become a 500.
 */
function unreadable(error: unknown): unknown {
  const status = (error as { statusCode?: unknown }).statusCode;
  if (error instanceof AppError || (typeof status === "number" && status < 500)) {
    return error;
  }
  return new AppError("BAD_REQUEST", `multipart unreadable: ${String(error)}`, MSG.formUnreadableDetail);
}

const envelope = z.object({}).loose();

/**
 * A form field holding JSON (e.g. `congressData`) as the input of the procedure it goes to (inferred from
 * the call, e.g. `caller.admin.users.save(jsonField(form, "userData"))`). Only the envelope, a JSON object,
 * is checked here: the procedure's schema validates every field, so a bad one answers `{title, detail}`.
 */
export function jsonField<Input extends object>(form: FormData, name: string): Input {
  const raw = form.fields[name];
  if (raw === undefined) {
    throw new AppError(
      "BAD_REQUEST",
      `field ${name} missing`,
      `Das Feld „${name}“ fehlt.`,
      MSG.validationTitle,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new AppError(
      "BAD_REQUEST",
      `field ${name} is no JSON`,
      `Das Feld „${name}“ ist kein gültiges JSON.`,
    );
  }
  return envelope.parse(value) as Input;
}
