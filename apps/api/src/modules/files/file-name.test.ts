import { describe, expect, it } from 'vitest';
import { contentDisposition, sanitiseFileName } from './file-name.ts';

describe('sanitiseFileName', () => {
  it.each([
    ['sofa.png', 'png', 'sofa.png'],
    ['../../etc/passwd', 'png', 'passwd.png'],
    ['C:\\Users\\me\\Desktop\\slip.PDF', 'pdf', 'slip.pdf'],
    ['invoice.html', 'png', 'invoice.png'],
    ['archive.tar.gz', 'pdf', 'archive.tar.pdf'],
    ['', 'jpg', 'file.jpg'],
    [null, 'jpg', 'file.jpg'],
    ['...', 'png', 'file.png'],
    ['name\u0000with\u0007controls.png', 'png', 'namewithcontrols.png'],
    ['a<b>c:d"e|f?g*h.png', 'png', 'a_b_c_d_e_f_g_h.png'],
    ['gnp.exe\u202e.png', 'png', 'gnp.exe_.png'],
    ['nul', 'png', '_nul.png'],
    ['  spaced   out  .png', 'png', 'spaced out.png'],
  ])('%j with %s → %j', (raw, ext, expected) => {
    expect(sanitiseFileName(raw, ext)).toBe(expected);
  });

  it('keeps names to 120 characters, extension included, without splitting a character', () => {
    const name = sanitiseFileName(`${'ছ'.repeat(300)}.png`, 'png');
    expect(Array.from(name).length).toBe(120);
    expect(name.endsWith('.png')).toBe(true);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('attachment', 'ছবি.png')).toBe(`attachment; filename="___.png"; filename*=UTF-8''%E0%A6%9B%E0%A6%AC%E0%A6%BF.png`);
    expect(contentDisposition('inline', "it's (1).png")).toBe(`inline; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`);
  });
});
