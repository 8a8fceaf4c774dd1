import type { FastifyError, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { messages, SIGNUP_BODY_MAX_BYTES, THUMBNAIL_MAX_BYTES } from '../../common';
import { AppError } from '../core/app-error';
import { refuseDeclaredBodyOver } from '../http/request-body';

/** A profile form as read, before any check. */
export interface ProfileForm {
  fields: Record<string, unknown>;
  thumbnail: { bytes: Buffer; fileName: string | undefined; tooLarge: boolean } | undefined;
}

/**
 * Reads a multipart profile form (signup, account settings): its text fields named in `textFields`, and
 * the `thumbnail` file; the thumbnail is read only up to one byte past the limit. A form that
 * declares more bytes than the largest valid one is refused before it is read.
 */
export async function readProfileForm(
  request: FastifyRequest,
  textFields: ReadonlySet<string>,
): Promise<ProfileForm> {
  refuseDeclaredBodyOver(
    request,
    SIGNUP_BODY_MAX_BYTES,
    () =>
      new AppError('payload-too-large', messages.thumbnailTooLarge, {
        thumbnail: messages.thumbnailTooLarge,
      }),
  );
  const fields: Record<string, unknown> = {};
  let thumbnail: ProfileForm['thumbnail'];
  const parts = request.parts({
    limits: { fileSize: THUMBNAIL_MAX_BYTES + 1, files: 1, fields: 8, fieldSize: 4096, parts: 10 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname === 'thumbnail') thumbnail = await readFilePart(part);
        else await drain(part);
      } else if (textFields.has(part.fieldname)) {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // The form parser (busboy) throws plain errors, without a status, for a body it cannot read: a
    // multipart type without a boundary, a malformed part. They are the client's, not a 500.
    if (error instanceof Error && (error as FastifyError).statusCode === undefined) {
      request.log.info({ err: error }, 'unreadable profile form');
      throw new AppError('invalid-argument', messages.badRequest);
    }
    throw error;
  }
  return { fields, thumbnail: thumbnail && thumbnail.bytes.length > 0 ? thumbnail : undefined };
}

async function readFilePart(part: MultipartFile): Promise<NonNullable<ProfileForm['thumbnail']>> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), fileName: part.filename, tooLarge: part.file.truncated };
}

async function drain(part: MultipartFile): Promise<void> {
  for await (const _chunk of part.file) {
    // discard unexpected files
  }
}
