import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectFileType, isInlineSafe } from './file-type.ts';

function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 2;
  ihdr.writeUInt32BE(zlib.crc32(ihdr.subarray(4, 21)), 21);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

/** A JPEG header: SOI, an APP0 segment, then a baseline frame (SOF0) of the given size. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

describe('detectFileType', () => {
  it('reads PNG, JPEG, GIF and WebP dimensions from their headers', () => {
    expect(detectFileType(png(640, 480))).toMatchObject({ mime: 'image/png', isImage: true, width: 640, height: 480 });
    expect(detectFileType(jpeg(1200, 800))).toMatchObject({ mime: 'image/jpeg', ext: 'jpg', isImage: true, width: 1200, height: 800 });
    const gif = Buffer.from('GIF89a\x20\x00\x10\x00\x00\x00\x00', 'latin1');
    expect(detectFileType(gif)).toMatchObject({ mime: 'image/gif', isImage: true, width: 32, height: 16 });
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'latin1');
    vp8x.write('WEBPVP8X', 8, 'latin1');
    vp8x.writeUIntLE(99, 24, 3);
    vp8x.writeUIntLE(49, 27, 3);
    expect(detectFileType(vp8x)).toMatchObject({ mime: 'image/webp', isImage: true, width: 100, height: 50 });
  });

  it('does not count a signature without a readable frame as an image', () => {
    expect(detectFileType(png(640, 480).subarray(0, 12))).toMatchObject({ mime: 'image/png', isImage: false });
    expect(detectFileType(png(0, 10))).toMatchObject({ isImage: false });
    expect(detectFileType(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toMatchObject({ mime: 'image/jpeg', isImage: false });
  });

  it("reads a bomb's claimed size, for the upload to refuse it by that size (docs/decisions/0050)", () => {
    expect(detectFileType(png(50_000, 50_000))).toMatchObject({ isImage: true, width: 50_000, height: 50_000 });
    expect(detectFileType(jpeg(9999, 10_000))).toMatchObject({ isImage: true, width: 9999, height: 10_000 });
  });

  it('recognises PDFs, markup and text whatever they are called', () => {
    expect(detectFileType(Buffer.from('%PDF-1.7\n'))).toMatchObject({ mime: 'application/pdf', isImage: false });
    expect(detectFileType(Buffer.from('\uFEFF  <?xml version="1.0"?>\n<!-- x --><svg xmlns="http://www.w3.org/2000/svg"/>'))).toMatchObject({
      mime: 'image/svg+xml',
    });
    expect(detectFileType(Buffer.from('<svg onload=alert(1)>'))).toMatchObject({ mime: 'image/svg+xml' });
    expect(detectFileType(Buffer.from('<!DOCTYPE html><p>hi'))).toMatchObject({ mime: 'text/html' });
    expect(detectFileType(Buffer.from('  <script>alert(1)</script>'))).toMatchObject({ mime: 'text/html' });
    expect(detectFileType(Buffer.from('hello\n'))).toMatchObject({ mime: 'text/plain' });
    expect(detectFileType(Buffer.from([0, 1, 2, 3, 250]))).toMatchObject({ mime: 'application/octet-stream' });
  });
});

describe('isInlineSafe', () => {
  it('lets only raster images be shown inline', () => {
    expect(['image/png', 'image/jpeg', 'image/gif', 'image/webp'].every(isInlineSafe)).toBe(true);
    expect(['image/svg+xml', 'text/html', 'application/pdf', 'application/octet-stream'].some(isInlineSafe)).toBe(false);
  });
});
