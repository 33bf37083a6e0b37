import { describe, expect, it } from 'vitest';
import { canonicalPaymentMethod } from '../payments';
import {
  formatBytes,
  formatCalendarDay,
  formatClock,
  formatDateTime,
  formatDuration,
  formatKm,
  formatMoney,
  formatMoneyCompact,
  formatMoneyFigure,
  formatNumber,
  formatTonnes,
  intlLocale,
  plural,
} from './format';

describe('format', () => {
  it('formats km', () => {
    expect(formatKm(12)).toBe('12 km');
    expect(formatKm(12.34)).toBe('12.3 km');
  });
  it.each([
    ['2026-11-22', 'Sunday, 22 November'],
    ['2026-01-01', 'Thursday, 1 January'],
  ])('calendar day %s → %s', (date, text) => expect(formatCalendarDay(date)).toBe(text));
});

describe('canonicalPaymentMethod', () => {
  it.each([
    ['Equity', 'Equity'],
    ['equity', 'Equity'],
    ['Co-operative', 'Cooperative'],
    ['co-op', undefined],
    ['M-Pesa', 'M-Pesa paybill'],
    ['mpesa paybill', 'M-Pesa paybill'],
    ['Barclays', undefined],
  ])('%s → %s', (input, out) => expect(canonicalPaymentMethod(input)).toBe(out));
});

describe('Nairobi date and number formatting', () => {
  const at = '2026-11-23T07:40:00.000Z';
  it('shows the instant in Nairobi time', () => {
    expect(formatDateTime(at)).toBe(
      new Date(at).toLocaleString('en-KE', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'Africa/Nairobi',
      }),
    );
    expect(formatDateTime(new Date(at), 'short')).toContain('10:40');
    expect(formatDateTime(at)).toContain('10:40');
  });
  it('groups numbers', () => {
    expect(formatNumber(1234.5)).toBe('1,234.5');
  });
});

describe('money, one way everywhere', () => {
  it.each([
    [32000, 'KES 32,000'],
    [0, 'KES 0'],
    [8500.5, 'KES 8,500.50'],
    [8500.05, 'KES 8,500.05'],
    [1234567.891, 'KES 1,234,567.89'],
    [7250.001, 'KES 7,250'],
    [-201280, '\u2212KES 201,280'],
    [-0.5, '\u2212KES 0.50'],
    [-0.001, 'KES 0'],
  ])('formatMoney(%s) = %s', (n, s) => expect(formatMoney(n)).toBe(s));

  it.each([
    [32000, '32,000'],
    [8500.5, '8,500.50'],
    [-201280, '201,280'],
  ])('formatMoneyFigure(%s) = %s', (n, s) => expect(formatMoneyFigure(n)).toBe(s));

  it.each([
    [0, 'KES 0'],
    [950, 'KES 950'],
    [45000, 'KES 45K'],
    [1_250_000, 'KES 1.3M'],
    [-201280, '\u2212KES 201.3K'],
  ])('formatMoneyCompact(%s) = %s', (n, s) => expect(formatMoneyCompact(n)).toBe(s));
});

describe('plurals, tonnes and durations', () => {
  it.each([
    [0, 'active load', undefined, '0 active loads'],
    [1, 'active load', undefined, '1 active load'],
    [2, 'active load', undefined, '2 active loads'],
    [1, 'duplicate entry', 'duplicate entries', '1 duplicate entry'],
    [12, 'duplicate entry', 'duplicate entries', '12 duplicate entries'],
    [1500, 'litre', undefined, '1,500 litres'],
  ])('plural(%s, %s)', (n, one, many, text) => expect(plural(n, one, many)).toBe(text));

  it.each([
    [20, '20 t'],
    [12.5, '12.5 t'],
    [1250.5, '1,250.5 t'],
  ])('formatTonnes(%s) = %s', (t, text) => expect(formatTonnes(t)).toBe(text));

  it.each([
    [0, '< 1 min'],
    [0.4, '< 1 min'],
    [1, '1 min'],
    [31.7, '31 min'],
    [59, '59 min'],
    [60, '1 h'],
    [300, '5 h'],
    [26.4 * 60, '26 h'],
    [48 * 60, '2 days'],
    [24 * 60 * 9, '9 days'],
  ])('formatDuration(%s min) = %s', (m, text) => expect(formatDuration(m)).toBe(text));
});

describe('formatters take the screen language (en by default, sw for Kiswahili)', () => {
  const at = new Date('2026-11-23T07:40:00Z'); // 10:40 in Nairobi, a Monday
  it.each([
    ['en', () => formatCalendarDay('2026-11-23', 'en'), 'Monday, 23 November'],
    ['sw', () => formatCalendarDay('2026-11-23', 'sw'), 'Jumatatu, 23 Novemba'],
    ['en', () => formatDateTime(at, 'medium', 'en'), formatDateTime(at)],
    ['sw', () => formatDateTime(at, 'medium', 'sw'), '23 Nov 2026, 10:40'],
    ['sw', () => formatClock(at, 'sw'), '10:40'],
    ['en', () => formatNumber(1234.5, 'en'), '1,234.5'],
    ['sw', () => formatNumber(1234.5, 'sw'), '1,234.5'],
    ['en', () => formatMoney(-8500.5, 'en'), formatMoney(-8500.5)],
    ['sw', () => formatMoney(32000, 'sw'), 'KES 32,000'],
    ['sw', () => formatMoney(-8500.5, 'sw'), '\u2212KES 8,500.50'],
    ['sw', () => formatMoneyFigure(1250000, 'sw'), '1,250,000'],
    ['sw', () => formatTonnes(1250.5, 'sw'), '1,250.5 t'],
    ['en', () => formatKm(12.34, 'en'), '12.3 km'],
    ['sw', () => formatKm(1234.56, 'sw'), '1,234.6 km'],
    ['sw', () => formatKm(12, 'sw'), '12 km'],
    ['en', () => formatDuration(31.7, 'en'), '31 min'],
    ['sw', () => formatDuration(0.4, 'sw'), 'chini ya dakika 1'],
    ['sw', () => formatDuration(31.7, 'sw'), 'dakika 31'],
    ['sw', () => formatDuration(300, 'sw'), 'saa 5'],
    ['sw', () => formatDuration(24 * 60 * 9, 'sw'), 'siku 9'],
  ])('%s: %s', (_locale, run, text) => expect(run()).toBe(text));
  // December is where the languages part ("Nov" is the same in both): a date on a Kiswahili screen must
  // not keep the English month. The short style writes the month as a number in both.
  const december = new Date('2026-12-06T10:30:00Z'); // 13:30 in Nairobi
  it.each([
    ['en', 'medium', '6 Dec 2026, 13:30'],
    ['sw', 'medium', '6 Des 2026, 13:30'],
    ['en', 'short', '06/12/2026, 13:30'],
    ['sw', 'short', '06/12/2026, 13:30'],
  ] as const)('%s %s: December as %s', (locale, style, text) => {
    expect(formatDateTime(december, style, locale)).toBe(text);
  });
  it('names the Intl locale', () => {
    expect(intlLocale('sw')).toBe('sw-KE');
    expect(intlLocale('en')).toBe('en-KE');
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [950, '950 B'],
    [1000, '1.0 kB'],
    [4_954_112, '5.0 MB'],
    [1_234_567_890, '1.2 GB'],
    [-5, '0 B'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
