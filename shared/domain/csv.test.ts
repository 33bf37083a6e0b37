import { describe, expect, it } from 'vitest';
import { neutraliseCell, toCsv } from './csv';

const STOCK_CSV_HEADER = ['Datetime', 'Kind', 'Trucks', 'Tonnes', 'Category', 'Truck ID', 'Reason'];

describe('neutraliseCell', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+254700000000', "'+254700000000"],
    ['-10', "'-10"],
    ['@cmd', "'@cmd"],
    ['\tTAB', "'\tTAB"],
    ['Yard receipt', 'Yard receipt'],
    [null, ''],
    [undefined, ''],
    [-20, -20],
    [12.5, 12.5],
    [Number.NaN, ''],
  ])('%j → %j', (input, out) => expect(neutraliseCell(input)).toEqual(out));
});

describe('toCsv', () => {
  it('quotes commas, quotes and newlines, and neutralises formulas', () => {
    const csv = toCsv(STOCK_CSV_HEADER, [
      ['2026-11-23T08:00:00.000Z', 'RECEIPT', 2.5, 50, 'coarse', 'TRK-1', 'Lorry, from "Mwea"\nsecond line'],
      ['2026-11-23T09:00:00.000Z', 'DELIVERY', -1, -20, 'coarse', 'TRK-1', '=HYPERLINK("http://evil")'],
    ]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Datetime,Kind,Trucks,Tonnes,Category,Truck ID,Reason');
    expect(csv).toContain('"Lorry, from ""Mwea""\nsecond line"');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).toContain(',-20,');
  });

  it('quotes every cell holding a separator of any locale, so `;=1+1` cannot split into a formula cell', () => {
    const csv = toCsv(
      ['Datetime', 'Description'],
      [
        ['2026-11-23', ';=1+1'],
        ['2026-11-23', 'tab\there'],
      ],
    );
    expect(csv.split('\r\n')[1]).toBe('2026-11-23,";=1+1"');
    expect(csv.split('\r\n')[2]).toBe('2026-11-23,"tab\there"');
  });
});
