import { UPLOAD_TASK_STATUSES, UPLOAD_TYPES } from './upload.ts';
import { z } from './zod.ts';

// The upload API's bodies and answers (spec §7), for the server's route schemas; the
// protocol's rules are in upload.ts.

export const ZUploadType = z.enum(UPLOAD_TYPES);
export const ZUploadTaskStatus = z.enum(UPLOAD_TASK_STATUSES);

/** Uploaded file (spec §3). width/height are known for images (no layout shift). */
export const ZUploadedFile = z.object({
  uuid: z.string(),
  name: z.string(),
  size: z.number().int(),
  isStored: z.boolean(),
  isImage: z.boolean(),
  mimeType: z.string(),
  cdnUrl: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type TUploadedFile = z.infer<typeof ZUploadedFile>;

export const ZMultipartStartRequest = z.object({
  filename: z.string().min(1).max(1000),
  size: z.number().int().min(1),
  contentType: z.string().max(200).optional(),
  type: ZUploadType,
});
export type TMultipartStartRequest = z.infer<typeof ZMultipartStartRequest>;

export const ZUploadPart = z.object({
  partNumber: z.number().int().min(1),
  offset: z.number().int().min(0),
  size: z.number().int().min(1),
  /** Where to PUT the part's bytes (application/octet-stream). */
  url: z.string(),
});
export type TUploadPart = z.infer<typeof ZUploadPart>;

export const ZMultipartUpload = z.object({
  uuid: z.string(),
  size: z.number().int(),
  parts: z.array(ZUploadPart),
  /** Part numbers the server already holds: a resumed upload sends only the others. */
  completedParts: z.array(z.number().int()),
  expiresAt: z.string(),
});
export type TMultipartUpload = z.infer<typeof ZMultipartUpload>;

export const ZFromUrlRequest = z.object({
  sourceUrl: z.string().min(1).max(2048),
  type: ZUploadType,
});

export const ZUploadTask = z.object({
  token: z.string(),
  status: ZUploadTaskStatus,
  /** Bytes received so far, and the total when the source said it. */
  done: z.number().int(),
  total: z.number().int().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  file: ZUploadedFile.nullable(),
});
export type TUploadTask = z.infer<typeof ZUploadTask>;
