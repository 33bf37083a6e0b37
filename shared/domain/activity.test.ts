import { describe, expect, it } from 'vitest';
import { changesBetween, isSecretField, REDACTED, retentionCutoff } from './activity';

describe('changesBetween: changed fields, before → after', () => {
  it.each([
    ['an update lists only what changed', { a: 1, b: 'x' }, { a: 2, b: 'x' }, { a: { from: 1, to: 2 } }],
    ['a create lists every field', null, { a: 1, b: null }, { a: { from: null, to: 1 } }],
    ['a removal lists every field it had', { a: 1 }, null, { a: { from: 1, to: null } }],
    ['nothing changed: nothing listed', { a: 1, at: new Date(0) }, { a: 1, at: new Date(0) }, {}],
    [
      'dates compare and show as ISO strings',
      { at: new Date('2026-01-01T00:00:00Z') },
      { at: new Date('2026-01-02T00:00:00Z') },
      { at: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' } },
    ],
    ['undefined counts as null', { a: undefined }, { a: null }, {}],
    ['updatedAt is noise', { updatedAt: new Date(0), a: 1 }, { updatedAt: new Date(1), a: 1 }, {}],
    [
      'a password hash never shows, only that it changed',
      { passwordHash: '$argon2id$old' },
      { passwordHash: '$argon2id$new' },
      { passwordHash: { from: REDACTED, to: REDACTED } },
    ],
    [
      'a new token on create shows redacted',
      null,
      { resetToken: 'abc' },
      { resetToken: { from: null, to: REDACTED } },
    ],
    [
      'secrets nested in objects are redacted too',
      { settings: { apiKey: 'k1', name: 'a' } },
      { settings: { apiKey: 'k2', name: 'b' } },
      { settings: { from: { apiKey: REDACTED, name: 'a' }, to: { apiKey: REDACTED, name: 'b' } } },
    ],
    ['arrays compare by content', { ids: [1, 2] }, { ids: [1, 2] }, {}],
    ['bigints as strings', { n: 1n }, { n: 2n }, { n: { from: '1', to: '2' } }],
  ])('%s', (_label, before, after, expected) => {
    expect(changesBetween(before, after)).toEqual(expected);
  });

  it('the same secret value unchanged is not listed', () => {
    expect(changesBetween({ password: 'x' }, { password: 'x' })).toEqual({});
  });
});

describe('isSecretField', () => {
  it.each([
    ['passwordHash', true],
    ['newPassword', true],
    ['token', true],
    ['trackingToken', true],
    ['consumerSecret', true],
    ['apiKey', true],
    ['oneTimePassword', true],
    ['name', false],
    ['amountKes', false],
    ['email', false],
    ['role', false],
  ])('%s → %s', (name, secret) => {
    expect(isSecretField(name)).toBe(secret);
  });
});

describe('retentionCutoff', () => {
  it.each([
    ['2026-11-26T00:00:00.000Z', 730, '2024-11-26T00:00:00.000Z'],
    ['2026-11-26T12:00:00.000Z', 1, '2026-11-25T12:00:00.000Z'],
  ])('%s less %i days = %s', (now, days, cutoff) => {
    expect(retentionCutoff(new Date(now), days).toISOString()).toBe(cutoff);
  });
});
