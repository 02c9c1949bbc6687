import { describe, expect, it } from 'vitest';
import { hasInvisibleCharacters, nameHasInvisibleCharacters } from './invisible-characters.ts';

describe('invisible characters', () => {
  it('finds controls and format characters, and nothing in plain text of either language', () => {
    for (const c of ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u202a', '\u202e', '\u2066', '\u2069', '\u0000', '\t', '\u007f', '\u0085'])
      expect(hasInvisibleCharacters(`a${c}b`), JSON.stringify(c)).toBe(true);
    expect(hasInvisibleCharacters('josé@bücher.example')).toBe(false);
    expect(nameHasInvisibleCharacters('রহিম উদ্দিন')).toBe(false);
  });

  it('lets a Bangla name keep a joiner between Bengali letters, and nowhere else', () => {
    expect(nameHasInvisibleCharacters('র\u200d্যাচেল')).toBe(false);
    expect(nameHasInvisibleCharacters('র\u200c্যা')).toBe(false);
    expect(nameHasInvisibleCharacters('Rahim\u200dUddin')).toBe(true);
    expect(nameHasInvisibleCharacters('র\u200d')).toBe(true);
    expect(nameHasInvisibleCharacters('\u200dর')).toBe(true);
    expect(nameHasInvisibleCharacters('র\u200b্যা')).toBe(true);
  });
});
