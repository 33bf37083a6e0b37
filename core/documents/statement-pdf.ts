import { toCsv } from '../../shared/domain/csv';
import { formatCalendarDay, formatMoney } from '../../shared/domain/format';
import type { TStatement } from '../../shared/schemas/accounts';
import type { DocumentLanguage } from './document-text';
import { MARGIN, pdfSafe, startDocument, WIDTH } from './pdf-page';

/** The words of a customer's statement, in English and Kiswahili (the customer's language). */
export const STATEMENT_TEXT = {
  en: {
    title: 'STATEMENT OF ACCOUNT',
    customer: 'Customer',
    accountNumber: 'Account number',
    period: 'Period',
    to: 'to',
    opening: 'Opening balance',
    invoices: 'Invoices',
    payments: 'Payments',
    credits: 'Credit notes',
    reversals: 'Payments reversed',
    closing: 'Closing balance',
    date: 'Date',
    kind: 'Entry',
    reference: 'Reference',
    due: 'Due',
    debit: 'Debit',
    credit: 'Credit',
    balance: 'Balance',
    kinds: { invoice: 'Invoice', credit: 'Credit note', payment: 'Payment', reversal: 'Reversal' },
    noLines: 'Nothing in this period.',
    ageing: 'Ageing of what is open at the end of the period',
    buckets: {
      current: 'Current',
      d1_30: '1-30 days',
      d31_60: '31-60 days',
      d61_90: '61-90 days',
      d90_plus: 'Over 90 days',
    },
    overdue: 'Overdue',
    howToPay: (paybills: string, account: string) => `How to pay: ${paybills}, account number ${account}.`,
    kraPin: 'KRA PIN',
  },
  sw: {
    title: 'TAARIFA YA AKAUNTI',
    customer: 'Mteja',
    accountNumber: 'Nambari ya akaunti',
    period: 'Kipindi',
    to: 'hadi',
    opening: 'Salio la mwanzo',
    invoices: 'Ankara',
    payments: 'Malipo',
    credits: 'Noti za mkopo',
    reversals: 'Malipo yaliyorudishwa',
    closing: 'Salio la mwisho',
    date: 'Tarehe',
    kind: 'Kipengee',
    reference: 'Kumbukumbu',
    due: 'Tarehe ya kulipa',
    debit: 'Deni',
    credit: 'Mkopo',
    balance: 'Salio',
    kinds: { invoice: 'Ankara', credit: 'Noti ya mkopo', payment: 'Malipo', reversal: 'Malipo yamerudishwa' },
    noLines: 'Hakuna kitu katika kipindi hiki.',
    ageing: 'Umri wa deni lililo wazi mwishoni mwa kipindi',
    buckets: {
      current: 'Sasa',
      d1_30: 'Siku 1-30',
      d31_60: 'Siku 31-60',
      d61_90: 'Siku 61-90',
      d90_plus: 'Zaidi ya siku 90',
    },
    overdue: 'Imepitwa na muda',
    howToPay: (paybills: string, account: string) =>
      `Jinsi ya kulipa: ${paybills}, nambari ya akaunti ${account}.`,
    kraPin: 'PIN ya KRA',
  },
} as const;

export interface StatementDocument {
  statement: TStatement;
  lang: DocumentLanguage;
  business: { name: string; pin: string | null; place: string; phone: string; email: string };
  /** Where the customer pays: the M-Pesa paybill number when set, else the banks' paybills. */
  paybills: string;
}

export const STATEMENT_CSV_HEADER = [
  'Date',
  'Entry',
  'Reference',
  'Order',
  'Due',
  'Debit',
  'Credit',
  'Balance',
];

/**
 * The statement as CSV (papaparse through shared/domain/csv.ts): an opening row, one row per entry,
 * a closing row; amounts as plain KES numbers with two decimals at most, so a spreadsheet sums them.
 */
export function statementCsv(s: TStatement): string {
  return toCsv(STATEMENT_CSV_HEADER, [
    [s.from, 'Opening balance', '', '', '', '', '', s.opening],
    ...s.lines.map((l) => [
      l.date,
      l.kind,
      l.reference,
      l.orderId ?? '',
      l.dueDate ?? '',
      l.debit || '',
      l.credit || '',
      l.balance,
    ]),
    [s.to, 'Closing balance', '', '', '', s.invoices + s.reversals, s.payments + s.credits, s.closing],
  ]);
}

/** The statement as a PDF (A4, pdfkit with the standard fonts, as the receipts), in the customer's language. */
export async function renderStatementPdf(d: StatementDocument): Promise<Buffer> {
  const t = STATEMENT_TEXT[d.lang];
  const s = d.statement;
  const money = (kes: number) => pdfSafe(formatMoney(kes, d.lang));
  const day = (date: string) => pdfSafe(formatCalendarDay(date, d.lang));
  const { doc, text, pair, finish } = startDocument(
    { Title: `${t.title} ${s.accountRef} ${s.from} ${s.to}`, Author: d.business.name },
    d.business,
    { kraPin: t.kraPin, title: t.title },
  );
  pair(t.customer, s.name);
  pair(t.accountNumber, s.accountRef);
  pair(t.period, `${day(s.from)} ${t.to} ${day(s.to)}`);
  doc.moveDown(0.6);

  const cols = [0, 62, 140, 225, 290, 365, 440];
  const row = (cells: string[], bold = false) => {
    if (doc.y > 780) doc.addPage();
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5);
    cells.forEach((c, i) => {
      const x = MARGIN + cols[i]!;
      const width = (cols[i + 1] ?? WIDTH) - cols[i]! - 4;
      doc.text(pdfSafe(c), x, y, { width, align: i < 4 ? 'left' : 'right', lineBreak: false });
    });
    doc.x = MARGIN;
    doc.y = y + 13;
  };
  const rule = () =>
    doc
      .moveTo(MARGIN, doc.y - 3)
      .lineTo(MARGIN + WIDTH, doc.y - 3)
      .lineWidth(0.5)
      .stroke();
  row([t.date, t.kind, t.reference, t.due, t.debit, t.credit, t.balance], true);
  rule();
  row([day(s.from), t.opening, '', '', '', '', money(s.opening)]);
  for (const l of s.lines)
    row([
      day(l.date),
      t.kinds[l.kind],
      l.reference,
      l.dueDate ? day(l.dueDate) : '',
      l.debit ? money(l.debit) : '',
      l.credit ? money(l.credit) : '',
      money(l.balance),
    ]);
  if (s.lines.length === 0) row(['', t.noLines, '', '', '', '', '']);
  rule();
  row([day(s.to), t.closing, '', '', '', '', money(s.closing)], true);
  doc.moveDown(0.8);

  const totals: [string, number][] = [
    [t.opening, s.opening],
    [t.invoices, s.invoices],
    [t.payments, s.payments],
    [t.credits, s.credits],
    ...(s.reversals ? ([[t.reversals, s.reversals]] as [string, number][]) : []),
    [t.closing, s.closing],
  ];
  for (const [label, kes] of totals) pair(label, money(kes));
  doc.moveDown(0.8);

  doc.font('Helvetica-Bold').fontSize(10);
  text(t.ageing);
  doc.moveDown(0.2);
  const buckets = ['current', 'd1_30', 'd31_60', 'd61_90', 'd90_plus'] as const;
  const ageCols = buckets.map((_, i) => (i * WIDTH) / buckets.length);
  const ageRow = (cells: string[], bold: boolean) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5);
    cells.forEach((c, i) => {
      doc.text(pdfSafe(c), MARGIN + ageCols[i]!, y, { width: WIDTH / buckets.length - 4, lineBreak: false });
    });
    doc.x = MARGIN;
    doc.y = y + 13;
  };
  ageRow(
    buckets.map((b) => t.buckets[b]),
    true,
  );
  ageRow(
    buckets.map((b) => money(s.ageing[b])),
    false,
  );
  doc.moveDown(0.3);
  pair(t.overdue, money(s.overdue));
  doc.moveDown(0.8);
  doc.font('Helvetica').fontSize(9);
  text(t.howToPay(d.paybills, s.accountRef));
  return finish();
}
