// What a file is, decided from its first bytes, never from its name or the Content-Type a
// client sent. Images count as images only when their header parses
// into sensible dimensions: a text file renamed .png, or a PNG signature glued to HTML,
// is not an image.

/** How many leading bytes detection looks at (JPEG dimensions may follow large EXIF blocks). */
export const SNIFF_BYTES = 512 * 1024;

export interface DetectedType {
  mime: string;
  ext: string;
  /** A raster image whose dimensions were read from its header. */
  isImage: boolean;
  width: number | null;
  height: number | null;
}

const RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** MIME types a browser may show inline from our origin: raster images only (never SVG or HTML). */
export function isInlineSafe(mime: string): boolean {
  return RASTER.has(mime);
}

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'image/svg+xml': 'svg',
  'text/html': 'html',
  'application/xml': 'xml',
  'application/zip': 'zip',
  'text/plain': 'txt',
  'application/octet-stream': 'bin',
};

export function extensionFor(mime: string): string {
  return EXT[mime] ?? 'bin';
}

function startsWith(b: Buffer, sig: number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  return sig.every((v, i) => b[at + i] === v);
}

function ascii(b: Buffer, at: number, len: number): string {
  return b.length >= at + len ? b.toString('latin1', at, at + len) : '';
}

function pngSize(b: Buffer): [number, number] | null {
  if (ascii(b, 12, 4) !== 'IHDR' || b.length < 24) return null;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

function gifSize(b: Buffer): [number, number] | null {
  if (b.length < 10) return null;
  return [b.readUInt16LE(6), b.readUInt16LE(8)];
}

function jpegSize(b: Buffer): [number, number] | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame
    const len = b.readUInt16BE(i + 2);
    if (len < 2) return null;
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
    }
    i += 2 + len;
  }
  return null;
}

function webpSize(b: Buffer): [number, number] | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.length >= 30 && startsWith(b, [0x9d, 0x01, 0x2a], 23)) {
    return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
  }
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
  }
  if (chunk === 'VP8X' && b.length >= 30) {
    return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
  }
  return null;
}

/**
 * An image whose header gives both dimensions. However large they are: the upload refuses a
 * picture beyond its type's limit by its size, in pixels, before decoding it (PICTURE_LIMITS,
 * docs/decisions/0050), so the dimensions are what the refusal names.
 */
function image(mime: string, size: [number, number] | null): DetectedType {
  const ok = size !== null && size[0] > 0 && size[1] > 0;
  return { mime, ext: extensionFor(mime), isImage: ok, width: ok ? size[0] : null, height: ok ? size[1] : null };
}

function other(mime: string): DetectedType {
  return { mime, ext: extensionFor(mime), isImage: false, width: null, height: null };
}

/** Markup a browser could run: refused as uploads, and never served inline. */
function markup(b: Buffer): DetectedType | null {
  let text = b.toString('utf8', 0, Math.min(b.length, 4096));
  text = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  // An XML prolog or comments may come before the root element.
  const stripped = text.replace(/^(<\?xml[^>]*>|<!--[\s\S]*?-->|\s)+/, '');
  if (stripped.startsWith('<svg') || stripped.startsWith('<!doctype svg')) return other('image/svg+xml');
  if (/^<(!doctype html|html|head|body|script|iframe|meta|title|div|p|a|img|style)[\s>/]/.test(stripped)) return other('text/html');
  if (text.startsWith('<?xml')) return /<svg[\s>]/.test(text) ? other('image/svg+xml') : other('application/xml');
  return null;
}

/** The type of a file from its leading bytes (pass at least SNIFF_BYTES when there are that many). */
export function detectFileType(head: Buffer): DetectedType {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png', pngSize(head));
  if (startsWith(head, [0xff, 0xd8, 0xff])) return image('image/jpeg', jpegSize(head));
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return image('image/gif', gifSize(head));
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return image('image/webp', webpSize(head));
  if (ascii(head, 0, 5) === '%PDF-') return other('application/pdf');
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return other('application/zip');
  const m = markup(head);
  if (m) return m;
  // Plain text: valid UTF-8 without control bytes other than whitespace.
  const sample = head.subarray(0, 4096);
  if (sample.length > 0 && !sample.some((c) => c < 9 || (c > 13 && c < 32)) && Buffer.from(sample.toString('utf8'), 'utf8').equals(sample)) {
    return other('text/plain');
  }
  return other('application/octet-stream');
}
