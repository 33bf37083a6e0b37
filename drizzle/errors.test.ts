import { describe, expect, it } from 'vitest';
import { GarbledAnswerError, isDatabaseDown, isDatabaseUnavailable, isRowError } from './errors';

const pg = (code: string, severity = 'ERROR') => Object.assign(new Error(code), { code, severity });
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: …'), { cause });

describe('what a database error means', () => {
  it.each([
    ['connection closed', { code: 'CONNECTION_CLOSED' }, true, true],
    ['a garbled answer', new GarbledAnswerError(), true, true],
    ['connections not allowed (FATAL 55000)', pg('55000', 'FATAL'), true, true],
    ['terminated by an administrator', pg('57P01', 'FATAL'), true, true],
    ['too many connections', pg('53300', 'FATAL'), true, true],
    ['disk full', pg('53100'), true, true],
    ['out of memory', pg('53200'), true, true],
    ['I/O error', pg('58030'), true, true],
    ['read-only transaction', pg('25006'), true, true],
    ['statement time-out', pg('57014'), false, true],
    ['lock time-out', pg('55P03'), false, true],
    ['a unique violation', pg('23505'), false, false],
    ['a sequence not yet used (55000, not FATAL)', pg('55000'), false, false],
    ['a bad number', pg('22P02'), false, false],
  ])('%s: down %s, a 503 %s', (_what, err, down, unavailable) => {
    expect(isDatabaseDown(wrapped(err))).toBe(down);
    expect(isDatabaseUnavailable(wrapped(err))).toBe(unavailable);
  });

  it('tells rows the database refuses from the database being away', () => {
    expect(isRowError(wrapped(pg('23505')))).toBe(true);
    expect(isRowError(wrapped(pg('53100')))).toBe(false);
  });
});
