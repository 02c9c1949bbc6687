import { describe, expect, it } from 'vitest';
import { isChunkLoadError, isNewerBuild, parseLatestBuild, shouldReloadForChunkError } from './build-freshness.ts';

describe('build freshness (spec §4, §9)', () => {
  const now = 1_800_000_000_000;
  it('knows a newer build only when the latest id is known and differs', () => {
    expect(isNewerBuild('a', 'b')).toBe(true);
    expect(isNewerBuild('a', 'a')).toBe(false);
    expect(isNewerBuild('a', null)).toBe(false);
    expect(isNewerBuild('', 'b')).toBe(false);
  });
  it('reloads when a newer build exists and no reload happened', () => {
    expect(shouldReloadForChunkError({ currentBuildId: 'a', latestBuildId: 'b', lastReloadAt: null, now })).toBe(true);
  });
  it('does not reload for the same build', () => {
    expect(shouldReloadForChunkError({ currentBuildId: 'a', latestBuildId: 'a', lastReloadAt: null, now })).toBe(false);
  });
  it('does not reload again within 10 seconds', () => {
    expect(shouldReloadForChunkError({ currentBuildId: 'a', latestBuildId: 'b', lastReloadAt: now - 9_999, now })).toBe(false);
    expect(shouldReloadForChunkError({ currentBuildId: 'a', latestBuildId: 'b', lastReloadAt: now, now })).toBe(false);
  });
  it('reloads again once the 10 second marker has expired', () => {
    expect(shouldReloadForChunkError({ currentBuildId: 'a', latestBuildId: 'b', lastReloadAt: now - 10_000, now })).toBe(true);
  });
  it('ignores a marker set far in the future by a clock change', () => {
    expect(shouldReloadForChunkError({ currentBuildId: 'a', latestBuildId: 'b', lastReloadAt: now + 5_000, now })).toBe(false);
    expect(shouldReloadForChunkError({ currentBuildId: 'a', latestBuildId: 'b', lastReloadAt: now + 60_000, now })).toBe(true);
  });
  it('reads the latest-build file defensively', () => {
    expect(parseLatestBuild({ buildId: 'x1', builtAt: '2026' })).toEqual({ buildId: 'x1', builtAt: '2026' });
    expect(parseLatestBuild({ buildId: '' })).toBeNull();
    expect(parseLatestBuild('x')).toBeNull();
    expect(parseLatestBuild(null)).toBeNull();
  });
  it('recognises the chunk load failures of Chromium, Firefox and Safari', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});
