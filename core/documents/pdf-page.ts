import PDFDocument from 'pdfkit';

/** A4 with 42 pt margins: the page every customer document (receipt, tax invoice, credit note, statement) uses. */
export const MARGIN = 42;
export const WIDTH = 595.28 - 2 * MARGIN;

/**
 * The standard PDF fonts speak Windows-1252: the few characters Intl puts in numbers and dates that it
 * lacks (narrow and no-break spaces, the minus sign) are written as their plain neighbours.
 */
export function pdfSafe(text: string): string {
  return text
    .replace(/[\u202f\u00a0\u2009]/g, ' ')
    .replace(/\u2212/g, '-')
    .replace(/[^\u0020-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');
}

export interface Seller {
  name: string;
  pin: string | null;
  place: string;
  phone: string;
  email: string;
}

/**
 * A new document (pdfkit, standard fonts) with what every one of ours starts with: the seller's block at the
 * top, then the document's title. `finish()` ends the document and gives its bytes.
 */
export function startDocument(
  info: PDFKit.DocumentInfo,
  seller: Seller,
  labels: { kraPin: string; title: string },
) {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = (s: string, options?: PDFKit.Mixins.TextOptions) => doc.text(pdfSafe(s), options);
  const pair = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(9);
    text(`${label}: `, { continued: true });
    doc.font('Helvetica');
    text(value);
  };

  // Who sells.
  doc.font('Helvetica-Bold').fontSize(16);
  text(seller.name);
  doc.font('Helvetica').fontSize(9);
  if (seller.pin) text(`${labels.kraPin}: ${seller.pin}`);
  text(`${seller.place} · ${seller.phone} · ${seller.email}`);
  doc.moveDown(0.8);
  // What this is.
  doc.font('Helvetica-Bold').fontSize(13);
  text(labels.title);
  doc.moveDown(0.3);

  const finish = () => {
    doc.end();
    return done;
  };
  return { doc, text, pair, finish };
}
