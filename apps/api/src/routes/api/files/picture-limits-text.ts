import { pictureLimitText } from '@storefront/shared';

/** The largest pictures and the pixel budget (docs/decisions/0050), as the upload endpoints describe them. */
export const PICTURE_LIMITS_TEXT =
  `A picture may be at most ${pictureLimitText('image')} as an image, and ${pictureLimitText('document')} (a phone's full-size photo) as a document, ` +
  'every frame of an animation counted: a larger one is refused with 413 image_too_large, read from its header before anything decodes it. ' +
  "The pixels of the pictures a customer (or a guest's address) uploads count against an hourly budget: beyond it 413 image_quota_exceeded with Retry-After. " +
  'When the server has more pictures to decode than it can take in time, 503 service_unavailable with Retry-After.';
