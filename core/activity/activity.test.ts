import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { currentActivityScope, inActivityScope, openActivityScopes } from './activity';

const scope = (procedure: string) => ({ actor: null, procedure, ip: null, userAgent: null });
/** The procedure of the scope seen after a few turns of the event loop. */
const seenLater = async (ms: number) => {
  await sleep(ms);
  await Promise.resolve();
  return currentActivityScope()?.procedure;
};

describe('activity scopes', () => {
  it('follow each mutation across awaits while others start and end, and are all closed after', async () => {
    const first = inActivityScope(scope('a.first'), () => seenLater(5));
    const second = inActivityScope(scope('b.second'), async () => {
      await first; // the first one settles (and closes) while this one is still running
      return [await seenLater(5), await seenLater(1)];
    });
    expect(openActivityScopes()).toBe(2);
    expect(await first).toBe('a.first');
    expect(await second).toEqual(['b.second', 'b.second']);
    expect(openActivityScopes()).toBe(0);
    expect(currentActivityScope()).toBeUndefined();
  });

  it('open again after the storage was switched off, and close after a failure', async () => {
    await inActivityScope(scope('c.done'), () => seenLater(1));
    expect(openActivityScopes()).toBe(0);
    expect(await inActivityScope(scope('d.again'), () => seenLater(2))).toBe('d.again');
    await expect(
      inActivityScope(scope('e.refused'), async () => {
        await sleep(1);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(() =>
      inActivityScope(scope('f.thrown'), () => {
        throw new Error('thrown');
      }),
    ).toThrow('thrown');
    expect(inActivityScope(scope('g.sync'), () => currentActivityScope()?.procedure)).toBe('g.sync');
    expect(openActivityScopes()).toBe(0);
    expect(currentActivityScope()).toBeUndefined();
  });
});
