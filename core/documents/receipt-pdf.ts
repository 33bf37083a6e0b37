import QRCode from 'qrcode';
import { formatDateTime, formatMoney, formatTonnes } from '../../shared/domain/format';
import type { SandType } from '../../shared/enums';
import { dashed } from '../../shared/etims/codes';
import { DOCUMENT_TEXT, type DocumentLanguage } from './document-text';
import { MARGIN, pdfSafe, startDocument, WIDTH } from './pdf-page';

/** Everything a receipt, tax invoice or credit note shows; built from the database (documents.service.ts). */
export interface DocumentData {
  lang: DocumentLanguage;
  kind: 'S' | 'R';
  /** eTIMS on for this invoice (false: a receipt only, with no eTIMS block). */
  etims: boolean;
  business: { name: string; pin: string | null; place: string; phone: string; email: string };
  invoice: {
    label: string;
    issuedAt: Date;
    status: 'off' | 'pending' | 'sent' | 'signed' | 'failed';
    original: string | null;
    reasonCode: string | null;
  };
  customer: { name: string; pin: string | null; phone: string | null };
  order: { id: number; accountRef: string; site: string };
  lines: { sandType: SandType; tonnes: number; unitPrice: number; amount: number }[];
  totals: { total: number; tax: number; taxType: string };
  payments: { method: string; reference: string; amount: number | null; at: Date | null }[];
  loads: { plate: string | null; tonnes: number; status: string; deliveredAt: Date | null }[];
  scu: {
    sdcDateTime: string | null;
    sdcId: string | null;
    receiptNo: string | null;
    totalReceiptNo: string | null;
    internalData: string | null;
    signature: string | null;
    mrcNo: string | null;
    qrUrl: string | null;
  } | null;
}

/** "20260226194328" (KRA's SCU time, Nairobi) as "26/02/2026 19:43:28". */
function scuTime(value: string | null): string {
  const m = value ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]} ${m[4]}:${m[5]}:${m[6]}` : (value ?? '-');
}

/** Renders the document as a PDF (A4, the standard Helvetica fonts, the verification QR drawn as vectors). */
export async function renderDocumentPdf(d: DocumentData): Promise<Buffer> {
  const t = DOCUMENT_TEXT[d.lang];
  const money = (kes: number) => pdfSafe(formatMoney(kes, d.lang));
  const title = d.kind === 'R' ? t.creditNote : d.etims ? t.taxInvoice : t.receipt;
  const { doc, text, pair, finish } = startDocument(
    {
      Title: `${d.invoice.label} ${d.business.name}`,
      Author: d.business.name,
      Subject: d.kind === 'R' ? 'Credit note' : 'Receipt',
    },
    d.business,
    { kraPin: t.kraPin, title },
  );
  pair(d.kind === 'R' ? t.creditNoteNo : t.invoiceNo, d.invoice.label);
  pair(t.date, formatDateTime(d.invoice.issuedAt, 'medium', d.lang));
  pair(t.order, `#${d.order.id} · ${t.accountNumber} ${d.order.accountRef}`);
  pair(t.site, d.order.site);
  if (d.kind === 'R' && d.invoice.original) {
    pair(t.original, d.invoice.original);
    if (d.invoice.reasonCode) pair(t.reason, t.reasons[d.invoice.reasonCode] ?? d.invoice.reasonCode);
  }
  doc.moveDown(0.6);

  // To whom.
  pair(t.customer, d.customer.name);
  if (d.customer.pin) pair(t.customerPin, d.customer.pin);
  if (d.customer.phone) pair(t.phone, d.customer.phone);
  doc.moveDown(0.8);

  // The lines.
  const cols = [0, 230, 320, 420];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    cells.forEach((c, i) => {
      const x = MARGIN + cols[i]!;
      const width = (cols[i + 1] ?? WIDTH) - cols[i]! - 6;
      doc.text(pdfSafe(c), x, y, { width, align: i === 0 ? 'left' : 'right', lineBreak: false });
    });
    doc.x = MARGIN;
    doc.y = y + 14;
  };
  row([t.description, t.quantity, t.unitPrice, t.amount], true);
  doc
    .moveTo(MARGIN, doc.y - 3)
    .lineTo(MARGIN + WIDTH, doc.y - 3)
    .lineWidth(0.5)
    .stroke();
  for (const l of d.lines)
    row([
      l.sandType === 'coarse' ? t.coarse : t.smooth,
      formatTonnes(l.tonnes, d.lang),
      money(l.unitPrice),
      money(l.amount),
    ]);
  doc
    .moveTo(MARGIN, doc.y - 3)
    .lineTo(MARGIN + WIDTH, doc.y - 3)
    .stroke();
  row([t.total, '', '', money(d.totals.total)], true);
  if (d.totals.taxType === 'B') {
    row([t.taxable, '', '', money(d.totals.total - d.totals.tax)]);
    row([t.taxB, '', '', money(d.totals.tax)]);
  } else row([t.taxD, '', '', money(0)]);
  doc.moveDown(0.6);

  // How it was paid, and what was carried.
  if (d.kind === 'S' && d.payments.length > 0) {
    doc.font('Helvetica-Bold').fontSize(10);
    text(t.paid);
    doc.font('Helvetica').fontSize(9);
    for (const p of d.payments)
      text(
        `${p.method} · ${t.paymentReference} ${p.reference}${p.amount ? ` · ${money(p.amount)}` : ''}${p.at ? ` · ${formatDateTime(p.at, 'short', d.lang)}` : ''}`,
      );
    doc.moveDown(0.6);
  }
  if (d.kind === 'S') {
    doc.font('Helvetica-Bold').fontSize(10);
    text(t.loads);
    doc.font('Helvetica').fontSize(9);
    if (d.loads.length === 0) text(t.noLoads);
    for (const l of d.loads)
      text(
        `${l.plate ?? '-'} · ${formatTonnes(l.tonnes, d.lang)}${l.deliveredAt ? ` · ${t.delivered} ${formatDateTime(l.deliveredAt, 'short', d.lang)}` : ''}`,
      );
    doc.moveDown(0.8);
  }

  // KRA eTIMS: the SCU details and the verification QR once KRA signed it; pending until then.
  if (d.etims) {
    doc.font('Helvetica-Bold').fontSize(10);
    if (d.invoice.status === 'signed' && d.scu) {
      text(t.scuHeading);
      doc.font('Helvetica').fontSize(9);
      const s = d.scu;
      const top = doc.y;
      pair(t.scuDate, scuTime(s.sdcDateTime));
      pair(t.scuId, s.sdcId ?? '-');
      pair(t.cuInvoiceNo, s.sdcId && s.receiptNo ? `${s.sdcId}/${s.receiptNo}` : '-');
      pair(
        t.receiptNumber,
        s.receiptNo ? `${s.receiptNo}/${s.totalReceiptNo ?? '-'} ${d.kind === 'R' ? 'NC' : 'NS'}` : '-',
      );
      pair(t.internalData, s.internalData ? dashed(s.internalData) : '-');
      pair(t.signature, s.signature ? dashed(s.signature) : t.signatureMissing);
      if (s.qrUrl) {
        const size = 96;
        const qr = QRCode.create(s.qrUrl, { errorCorrectionLevel: 'M' });
        const n = qr.modules.size;
        const cell = size / n;
        const x0 = MARGIN + WIDTH - size;
        for (let y = 0; y < n; y++)
          for (let x = 0; x < n; x++)
            if (qr.modules.get(x, y)) doc.rect(x0 + x * cell, top + y * cell, cell, cell);
        doc.fill('#000000');
        doc.x = MARGIN;
        doc.y = Math.max(doc.y, top + size) + 6;
        doc.font('Helvetica').fontSize(8);
        text(t.verify);
        // One line, whole: a reader copies it, and a PDF text tool finds it.
        doc.fontSize(6.5);
        text(s.qrUrl, { link: s.qrUrl, lineBreak: false });
        doc.x = MARGIN;
        doc.moveDown(1);
        doc.fontSize(9);
      }
    } else {
      text(d.invoice.status === 'failed' ? t.failed : t.pending);
      doc.font('Helvetica').fontSize(9);
      text(t.pendingNote);
    }
    doc.moveDown(0.8);
  }
  doc.font('Helvetica').fontSize(9);
  text(t.thanks);
  return finish();
}
