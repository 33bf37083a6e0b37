import { describe, expect, it, vi } from 'vitest';
import { inSteps, loadOnce, preloadable } from './lazy';

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

describe('inSteps', () => {
  it('runs each step in a task of its own, in order, then the last', async () => {
    const seen: string[] = [];
    // A task queued as each step runs: it runs before the next step only if the steps yield to tasks.
    const step = (name: string) => async () => {
      seen.push(name);
      setTimeout(() => seen.push(`task after ${name}`), 0);
    };
    const result = await inSteps([step('zod'), step('api')], async () => {
      seen.push('islands');
      return 'loaded';
    });
    expect(result).toBe('loaded');
    expect(seen).toEqual(['zod', 'task after zod', 'api', 'task after api', 'islands']);
  });

  it('fails when a step fails, without loading the rest', async () => {
    const last = vi.fn(async () => 'loaded');
    const after = vi.fn(async () => undefined);
    await expect(
      inSteps([() => Promise.reject(new Error('connection dropped')), after], last),
    ).rejects.toThrow('connection dropped');
    expect(after).not.toHaveBeenCalled();
    expect(last).not.toHaveBeenCalled();
  });
});

describe('loadOnce', () => {
  it('shares one load between calls, and starts it again after a failure', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('connection dropped'))
      .mockResolvedValue('islands');
    const islands = loadOnce(load);
    await expect(Promise.all([islands(), islands()])).rejects.toThrow('connection dropped');
    expect(load).toHaveBeenCalledTimes(1);
    expect(await Promise.all([islands(), islands()])).toEqual(['islands', 'islands']);
    expect(await islands()).toBe('islands');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
