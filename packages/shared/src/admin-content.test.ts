import { describe, expect, it } from 'vitest';
import { checkContentInput, dhakaInputToIso, isContentLive, isoToDhakaInput, isShopImage, richTextProblem } from './admin-content-schemas.ts';

// The rules of site content the API applies and the back office's forms read (docs/decisions/0035).

describe('richTextProblem', () => {
  it('accepts the shop’s rich text: headings, lists, bold and safe links', () => {
    expect(
      richTextProblem(
        '## Delivery\n- Dhaka: **free** over ৳20,000\n\nSee [our terms](/terms-conditions), [a map](https://maps.example/x), [mail](mailto:a@b.bd) or [call](tel:+8809612016771).',
      ),
    ).toBeNull();
    expect(richTextProblem('Prices are in taka; 2 < 3 and data: stays with us.')).toBeNull();
  });
  it.each([
    ['<script>alert(1)</script>', /Remove the <script> tag/],
    ['<IMG SRC=x ONERROR=alert(1)>', /Remove the <img> tag/],
    ['x onerror = alert(1)', /onerror/],
    ['[x](javascript:alert(1))', /not allowed/],
    ['[x](data:text/html,hi)', /not allowed/],
    ['[x](//evil.example)', /not allowed/],
    ['text javascript:alert(1)', /javascript/],
  ])('refuses %s', (text, message) => {
    expect(richTextProblem(text)).toMatch(message);
  });
});

describe('content fields', () => {
  const slide = { type: 'slider' as const, title: 'A', body: '', active: true, fields: { image: '/media/a.svg', link: '/shop' } };
  it('keeps the picture and link of a slide, and hasCampaign of a pop-up in step with its switch', () => {
    expect(checkContentInput(slide)).toEqual({ ok: true, value: { title: 'A', body: '', fields: { image: '/media/a.svg', link: '/shop' } } });
    const popup = checkContentInput({ ...slide, type: 'campaign', active: false });
    expect(popup.ok && popup.value.fields.hasCampaign).toBe(false);
  });
  it('names each bad field', () => {
    const r = checkContentInput({
      ...slide,
      fields: { image: 'https://x.example/a.png', link: 'javascript:x' },
      shownFrom: '2026-12-02T00:00:00Z',
      shownUntil: '2026-12-01T00:00:00Z',
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.fields).sort()).toEqual(['fields.image', 'fields.link', 'shownUntil']);
  });
  it('takes pictures from the shop only', () => {
    expect(isShopImage('/files/abc/x.png')).toBe(true);
    expect(isShopImage('/media/x.svg?t=A')).toBe(true);
    expect(isShopImage('/files/../etc/passwd')).toBe(false);
    expect(isShopImage('//cdn.example/x.png')).toBe(false);
  });
});

describe('schedule', () => {
  it('is live from its start, up to (not at) its end', () => {
    const now = new Date('2026-12-01T06:00:00Z');
    expect(isContentLive({ active: true, shownFrom: '2026-12-01T06:00:00Z', shownUntil: null }, now)).toBe(true);
    expect(isContentLive({ active: true, shownFrom: null, shownUntil: '2026-12-01T06:00:00Z' }, now)).toBe(false);
    expect(isContentLive({ active: false, shownFrom: null, shownUntil: null }, now)).toBe(false);
  });
  it('reads and writes Dhaka time (UTC+6)', () => {
    expect(dhakaInputToIso('2026-12-01T09:30')).toBe('2026-12-01T03:30:00.000Z');
    expect(isoToDhakaInput('2026-12-01T03:30:00.000Z')).toBe('2026-12-01T09:30');
    expect(dhakaInputToIso('')).toBeNull();
    expect(dhakaInputToIso('tomorrow')).toBeUndefined();
  });
});
