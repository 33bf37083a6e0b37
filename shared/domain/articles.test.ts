import { describe, expect, it } from 'vitest';
import { articleSummary, articleTopic, safeImageUrl } from './articles';

describe('articleSummary', () => {
  const long = Array.from({ length: 45 }, (_, i) => `w${i}`).join(' ');
  it.each([
    ['Given summary', 'body', 'Given summary'],
    ['  ', 'Short body here.', 'Short body here.'],
    [null, long, `${long.split(' ').slice(0, 40).join(' ')}…`],
    [null, '## Heading\n\n**Bold** text', 'Heading Bold text'],
    [null, null, 'Fresh perspective for your crews today.'],
    ['', '   ', 'Fresh perspective for your crews today.'],
  ])('%j / %j', (summary, body, expected) => expect(articleSummary(summary, body)).toBe(expected));
});

describe('articleTopic and safeImageUrl', () => {
  it('defaults the topic', () => {
    expect(articleTopic(null)).toBe('Operations insight');
    expect(articleTopic('Fleet')).toBe('Fleet');
  });
  it.each([
    ['/briefings/yard.jpg', '/briefings/yard.jpg'],
    ['//evil.example/x.jpg', null],
    ['javascript:alert(1)', null],
    ['http://images.example/x.jpg', null],
    ['https://images.example/x.jpg', 'https://images.example/x.jpg'],
    ['https://other.example/x.jpg', null],
  ])('%s → %s', (url, out) => expect(safeImageUrl(url, ['images.example'])).toBe(out));
});
