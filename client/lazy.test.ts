import { describe, expect, it, vi } from 'vitest';
import { preloadable } from './lazy';

const Screen = () => null;

describe('preloadable', () => {
  it('loads the chunk once for any number of preloads started together', async () => {
    const load = vi.fn(() => Promise.resolve(Screen));
    const page = preloadable(load);
    await Promise.all([page.preload(), page.preload(), page.preload()]);
    await page.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed load again on the next preload', async () => {
    const load = vi
      .fn<() => Promise<typeof Screen>>()
      .mockRejectedValueOnce(new Error('connection dropped'))
      .mockResolvedValueOnce(Screen);
    const page = preloadable(load);
    await expect(page.preload()).rejects.toThrow('connection dropped');
    await expect(page.preload()).resolves.toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
