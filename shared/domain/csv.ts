import Papa from 'papaparse';

/**
 * Spreadsheet programs run cells that start with = + - @ (or a tab / carriage return) as formulas.
 * Such cells are prefixed with an apostrophe so an exported note can never execute.
 */
export function neutraliseCell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** CSV text with a header row; quoting by papaparse, formula cells neutralised. */
export function toCsv(header: string[], rows: unknown[][]): string {
  return Papa.unparse({ fields: header, data: rows.map((r) => r.map(neutraliseCell)) }, { newline: '\r\n' });
}

export const STOCK_CSV_HEADER = ['Datetime', 'Kind', 'Trucks', 'Tonnes', 'Category', 'Truck ID', 'Reason'];
export const COSTS_CSV_HEADER = ['Datetime', 'Type', 'Truck', 'Amount', 'Description'];
