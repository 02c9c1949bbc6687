import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { BN, BN_PARTS } from './catalog.ts';
import { compileCatalog } from './compile.ts';
import { serverT } from './server.ts';

// The Bangla catalogue against the code that uses it (docs/decisions/0038): every id the
// storefront or a shopper's mail writes as a literal has its Bangla, and the Bangla keeps
// each value, plural and tag of its id, so nothing a shopper reads is left in English or
// loses its number.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Source files whose texts shoppers read: the storefront (not the back office) and the API's mails. */
function shopperSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'admin' || entry.name === 'node_modules') continue;
        walk(p);
      } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(p);
    }
  };
  walk(path.join(ROOT, 'apps/web/app'));
  walk(path.join(ROOT, 'apps/api/src/modules'));
  return out;
}

// t('…'), t("…"), t(`…`) without ${}, and <Trans id="…">.
const CALL = /(?<![\w.])t\(\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\$])*)`)/g;
const TRANS = /<Trans\s+id=(?:"([^"]*)"|'([^']*)'|\{'((?:\\.|[^'\\])*)'\})/g;

function unescape(s: string): string {
  return s.replace(/\\(['"`\\])/g, '$1');
}

export function idsUsed(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const file of shopperSources()) {
    // Comments show how to call t(); they are not texts.
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const re of [CALL, TRANS]) {
      for (const m of text.matchAll(re)) {
        const id = unescape(m[1] ?? m[2] ?? m[3] ?? '');
        if (id) ids.set(id, path.relative(ROOT, file));
      }
    }
  }
  return ids;
}

/** The names of the values, plurals and tags a message carries, sorted. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  // A compiled message is a list of tokens: a text, or an argument [name, type?, branches?]
  // whose branches (a plural's one/other) are token lists again.
  const tokens = (list: unknown) => {
    for (const token of list as unknown[]) {
      if (typeof token === 'string') {
        for (const m of token.matchAll(/<\/?(\d+)\/?>/g)) names.add(`<${m[1]}>`);
      } else if (Array.isArray(token)) {
        names.add(String(token[0]));
        const branches = token[2];
        if (branches && typeof branches === 'object') for (const branch of Object.values(branches)) if (Array.isArray(branch)) tokens(branch);
      }
    }
  };
  const compiled = compileMessage(message);
  tokens(Array.isArray(compiled) ? compiled : [compiled]);
  return [...names].sort();
}

describe('the Bangla catalogue', () => {
  it('has Bangla for every text the storefront and the mails write', () => {
    const missing = [...idsUsed()].filter(([id]) => !(id in BN)).map(([id, file]) => `${file}: ${id}`);
    expect(missing).toEqual([]);
  });

  it('keeps every value, plural and tag of each id', () => {
    const wrong = Object.entries(BN)
      .filter(([id, bn]) => JSON.stringify(argumentsOf(id)) !== JSON.stringify(argumentsOf(bn)))
      .map(([id, bn]) => `${id} -> ${bn}`);
    expect(wrong).toEqual([]);
  });

  it('is written in Bangla', () => {
    // A message may keep a brand or a code in Latin letters, but it must say something in
    // Bangla (or nothing in words at all, as `{quantity} × {price}`).
    const english = Object.entries(BN)
      .filter(([, bn]) => {
        const words = bn.replace(/\{\w+\}/g, '');
        return /[A-Za-z]/.test(words) && !/[\u0980-\u09FF]/.test(words);
      })
      .map(([id]) => id);
    expect(english).toEqual([]);
  });

  it('gives each id one Bangla, whichever part holds it', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const [part, catalog] of Object.entries(BN_PARTS)) {
      for (const [id, bn] of Object.entries(catalog)) {
        const before = seen.get(id);
        if (before !== undefined && before !== bn) clashes.push(`${part}: ${id}`);
        seen.set(id, bn);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('compiles, and translates with the language’s digits and plural rules', () => {
    expect(() => compileCatalog('bn')).not.toThrow();
    expect(() => compileCatalog('en')).not.toThrow();
    const t = serverT('bn');
    expect(t('Skip to content')).toBe('মূল বিষয়বস্তুতে যান');
    expect(t('Hotline {hotline}', { hotline: '16770' })).toBe('হটলাইন 16770');
    // An id with no Bangla is shown as written, not as an empty string or a key.
    expect(t('No such text')).toBe('No such text');
    expect(serverT('en')('Hotline {hotline}', { hotline: '16770' })).toBe('Hotline 16770');
  });
});
