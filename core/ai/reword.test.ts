import { describe, expect, it } from 'vitest';
import type { Llm } from '../../shared/ai/llm';
import { reword } from './reword';

const llm = (answer: () => Promise<string>): Llm => ({ complete: () => answer() });

describe('reword', () => {
  it('answers the rewording, or null so that the rule-written text stands', async () => {
    expect(await reword(null, 'Rewrite.', 'Rules text')).toBeNull();
    expect(
      await reword(
        llm(async () => 'Nicer text'),
        'Rewrite.',
        'Rules text',
      ),
    ).toBe('Nicer text');
    expect(
      await reword(
        llm(async () => ''),
        'Rewrite.',
        'Rules text',
      ),
    ).toBeNull();
    expect(
      await reword(
        llm(async () => {
          throw new Error('timeout');
        }),
        'Rewrite.',
        'Rules text',
      ),
    ).toBeNull();
    const noMarkup = (text: string) => !/<[a-z!/]/i.test(text);
    expect(
      await reword(
        llm(async () => '<b>Bold</b>'),
        'Rewrite.',
        'Rules text',
        noMarkup,
      ),
    ).toBeNull();
    expect(
      await reword(
        llm(async () => 'Plain'),
        'Rewrite.',
        'Rules text',
        noMarkup,
      ),
    ).toBe('Plain');
  });
});
