import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  COMMON_MESSAGES,
  LIMITS,
  zCalendarDate,
  zInstant,
  zIntId,
  zKes,
  zLitres,
  zOdometerKm,
  zOptionalInstant,
  zStockTrucks,
  zText,
  zTextId,
  zTonnes,
} from './common';

/** The value a schema makes of an input, or the message of its first issue. */
function outcome(schema: z.ZodType, input: unknown): unknown {
  const r = schema.safeParse(input);
  return r.success ? r.data : `! ${r.error.issues[0]!.message}`;
}

describe('zText', () => {
  const name = zText({ label: 'Name', max: 10, required: 'Name is required.' });
  const note = zText({ label: 'Note', max: 20, multiline: true });
  it.each([
    [name, '  Wanjiku ', 'Wanjiku'],
    [name, 'Wan\u00e9 😀', 'Wan\u00e9 😀'],
    [name, '   ', '! Name is required.'],
    [name, undefined, '! Name is required.'],
    [name, 42, '! Name is required.'],
    [name, 'x'.repeat(11), '! Name is too long (at most 10 characters).'],
    [name, 'a\u0000b', '! Name cannot contain control characters.'],
    [name, '\u0000', '! Name cannot contain control characters.'],
    [name, 'a\u0007', '! Name cannot contain control characters.'],
    [name, 'a\u001b[2J', '! Name cannot contain control characters.'],
    [name, 'a\u007f', '! Name cannot contain control characters.'],
    [name, 'a\u009b', '! Name cannot contain control characters.'],
    [name, 'a\nb', '! Name cannot contain control characters.'],
    [name, 'a\tb', '! Name cannot contain control characters.'],
    [name, 'a\ud800b', '! Name cannot contain control characters.'],
    [name, 'a\udc00', '! Name cannot contain control characters.'],
    [note, 'line 1\nline 2\r\n\tend', 'line 1\nline 2\r\n\tend'],
    [note, 'a\u0000b', '! Note cannot contain control characters.'],
    [note, 'a\u000bb', '! Note cannot contain control characters.'],
    [note, '', ''],
    [
      zText({ label: 'Message', max: 3, tooLong: 'Messages are at most 3 characters.' }),
      'abcd',
      '! Messages are at most 3 characters.',
    ],
  ])('%#: %j', (schema, input, expected) => {
    expect(outcome(schema, input)).toEqual(expected);
  });
});

describe('ids', () => {
  const id = zIntId('Order not found.');
  const truck = zTextId('No truck with that ID exists.', 40);
  it.each([
    [id, 12, 12],
    [id, '12', 12],
    [id, ' 7 ', 7],
    [id, LIMITS.intId, LIMITS.intId],
    [id, 2_147_483_648, '! Order not found.'],
    [id, '2147483648', '! Order not found.'],
    [id, 8.64e15, '! Order not found.'],
    [id, 0, '! Order not found.'],
    [id, -1, '! Order not found.'],
    [id, 1.5, '! Order not found.'],
    [id, '1e3', '! Order not found.'],
    [id, '0x10', '! Order not found.'],
    [id, '\u0000', '! Order not found.'],
    [id, true, '! Order not found.'],
    [id, [5], '! Order not found.'],
    [id, null, '! Order not found.'],
    [truck, ' T-001 ', 'T-001'],
    [truck, '\u0000', '! No truck with that ID exists.'],
    [truck, 'T\u00001', '! No truck with that ID exists.'],
    [truck, '', '! No truck with that ID exists.'],
    [truck, 'x'.repeat(41), '! No truck with that ID exists.'],
    [truck, 12, '! No truck with that ID exists.'],
  ])('%#: %j', (schema, input, expected) => {
    expect(outcome(schema, input)).toEqual(expected);
  });
});

describe('numbers', () => {
  const amount = zKes('Enter an amount greater than zero.');
  const fuelCost = zKes('Total cost is required.', LIMITS.fuelCostKes, true);
  const tonnes = zTonnes('Tonnes must be greater than zero.');
  const capacity = zTonnes('Capacity (tonnes) must be greater than zero.', { min: 1 });
  it.each([
    [amount, 7250, 7250],
    [amount, 4500.5, 4500.5],
    [amount, 0.01, 0.01],
    [amount, '19.99', 19.99],
    [amount, ' 1500 ', 1500],
    [amount, 100_000_000, 100_000_000],
    [amount, 100_000_000.01, '! Amounts are at most KES 100,000,000.'],
    [amount, 1e308, '! Amounts are at most KES 100,000,000.'],
    [amount, -1e308, '! Enter an amount greater than zero.'],
    [amount, 1e-300, `! ${COMMON_MESSAGES.cents}`],
    [amount, 12.345, `! ${COMMON_MESSAGES.cents}`],
    [amount, 0.001, `! ${COMMON_MESSAGES.cents}`],
    [amount, 0, '! Enter an amount greater than zero.'],
    [amount, -0, '! Enter an amount greater than zero.'],
    [amount, Number.POSITIVE_INFINITY, '! Enter an amount greater than zero.'],
    [amount, Number.NaN, '! Enter an amount greater than zero.'],
    [amount, '', '! Enter an amount greater than zero.'],
    [amount, 'NaN', '! Enter an amount greater than zero.'],
    [amount, 'Infinity', '! Enter an amount greater than zero.'],
    [amount, '1e3', '! Enter an amount greater than zero.'],
    [amount, '12,5', '! Enter an amount greater than zero.'],
    [amount, true, '! Enter an amount greater than zero.'],
    [amount, [5], '! Enter an amount greater than zero.'],
    [amount, null, '! Enter an amount greater than zero.'],
    [fuelCost, 0, 0],
    [fuelCost, 10_000_001, '! Amounts are at most KES 10,000,000.'],
    [tonnes, 6.67, 6.67],
    [tonnes, 100.01, '! Tonnes are at most 100.'],
    [tonnes, 6.667, '! Tonnes have at most two decimals.'],
    [capacity, 0.5, '! Capacity (tonnes) must be greater than zero.'],
    [capacity, 18, 18],
    [zStockTrucks('Enter trucks received (must be greater than zero).'), 2.5, 2.5],
    [
      zStockTrucks('Enter trucks received (must be greater than zero).'),
      1001,
      '! A receipt is at most 1,000 trucks.',
    ],
    [zLitres('Litres cannot be negative.'), 0, 0],
    [zLitres('Litres cannot be negative.'), -1, '! Litres cannot be negative.'],
    [zLitres('Litres cannot be negative.'), 10_001, '! Litres are at most 10,000.'],
    [zOdometerKm('Odometer cannot be negative.'), 120_000.5, 120_000.5],
    [
      zOdometerKm('Odometer cannot be negative.'),
      120_000.55,
      '! Odometer readings have at most one decimal.',
    ],
    [zOdometerKm('Odometer cannot be negative.'), 1e7, '! Odometer readings are at most 9,999,999 km.'],
  ])('%#: %j', (schema, input, expected) => {
    expect(outcome(schema, input)).toEqual(expected);
  });
});

describe('dates and instants', () => {
  const day = zCalendarDate('Choose the date you need the sand.');
  it.each([
    ['2026-12-01', '2026-12-01'],
    ['2028-02-29', '2028-02-29'],
    ['2026-02-29', '! Choose the date you need the sand.'],
    ['2026-02-30', '! Choose the date you need the sand.'],
    ['2026-13-45', '! Choose the date you need the sand.'],
    ['0000-00-00', '! Choose the date you need the sand.'],
    ['2026-1-1', '! Choose the date you need the sand.'],
    ['tomorrow', '! Choose the date you need the sand.'],
    ['1999-12-31', `! ${COMMON_MESSAGES.dateRange}`],
    ['9999-12-31', `! ${COMMON_MESSAGES.dateRange}`],
    [20261201, '! Choose the date you need the sand.'],
  ])('calendar date %j', (input, expected) => {
    expect(outcome(day, input)).toEqual(expected);
  });

  const at = zInstant();
  it.each([
    ['2026-11-23T08:15:00Z', '2026-11-23T08:15:00.000Z'],
    ['2026-11-23T08:15:00.123Z', '2026-11-23T08:15:00.123Z'],
    ['2026-11-23T11:15:00+03:00', '2026-11-23T08:15:00.000Z'],
    [new Date('2026-11-23T08:15:00Z'), '2026-11-23T08:15:00.000Z'],
    ['+275760-09-13T00:00:00Z', `! ${COMMON_MESSAGES.instant}`],
    ['-271821-04-20T00:00:00Z', `! ${COMMON_MESSAGES.instant}`],
    ['2026-02-30T10:00:00Z', `! ${COMMON_MESSAGES.instant}`],
    ['2026-11-23T25:00:00Z', `! ${COMMON_MESSAGES.instant}`],
    ['2026-11-23T08:15:00+99:99', `! ${COMMON_MESSAGES.instant}`],
    ['2026-11-23', `! ${COMMON_MESSAGES.instant}`],
    ['now', `! ${COMMON_MESSAGES.instant}`],
    [1795430000000, `! ${COMMON_MESSAGES.instant}`],
    [new Date(8.64e15), `! ${COMMON_MESSAGES.instant}`],
    [new Date(Number.NaN), `! ${COMMON_MESSAGES.instant}`],
    ['1900-01-01T00:00:00Z', `! ${COMMON_MESSAGES.instantRange}`],
    ['2500-01-01T00:00:00Z', `! ${COMMON_MESSAGES.instantRange}`],
  ])('instant %j', (input, expected) => {
    const r = outcome(at, input);
    expect(r instanceof Date ? r.toISOString() : r).toEqual(expected);
  });

  it('reads blank and null as not given', () => {
    expect(outcome(zOptionalInstant(), '')).toBeUndefined();
    expect(outcome(zOptionalInstant(), null)).toBeUndefined();
    expect(outcome(zOptionalInstant(), undefined)).toBeUndefined();
  });
});
