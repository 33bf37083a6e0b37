import { type InvoiceLine, taxInside } from '../domain/invoices';
import { fromCents } from '../domain/money';
import {
  type CreditNoteReason,
  ITEM_TYPE_FINISHED,
  kraDate,
  kraDateTime,
  ORIGIN_KENYA,
  type PaymentTypeCode,
  PKG_UNIT_BULK,
  QTY_UNIT_TONNE,
  RECEIPT_TYPE,
  REGISTRATION_AUTOMATIC,
  SALES_STATUS_APPROVED,
  SALES_TYPE_NORMAL,
  SAND_ITEMS,
  type SandType,
  TAX_RATES,
  TAX_TYPES,
  type TaxType,
} from './codes';

// The OSCU request bodies Mchanga sends, typed field for field as KRA documents them (TrnsSalesSaveWrReq,
// ItemSaveReq, StockIoSaveReq, StockMasterSaveReq), and the pure builders that make them from an invoice.
// Amounts go in KES with two decimals; tax-inclusive, as OSCU reads `taxblAmt`.

const REGISTRAR = { regrId: 'mchanga', regrNm: 'Mchanga', modrId: 'mchanga', modrNm: 'Mchanga' } as const;
type Registrar = typeof REGISTRAR;

export interface SaleItem {
  itemSeq: number;
  itemCd: string;
  itemClsCd: string;
  itemNm: string;
  pkgUnitCd: string;
  pkg: number;
  qtyUnitCd: string;
  qty: number;
  prc: number;
  splyAmt: number;
  dcRt: number;
  dcAmt: number;
  taxTyCd: TaxType;
  taxblAmt: number;
  taxAmt: number;
  totAmt: number;
}

type TaxFields = {
  [K in `taxblAmt${TaxType}` | `taxRt${TaxType}` | `taxAmt${TaxType}`]: number;
};

export interface TrnsSalesSaveWrReq extends TaxFields, Registrar {
  trdInvcNo: string;
  invcNo: number;
  orgInvcNo: number;
  custTin: string | null;
  custNm: string | null;
  salesTyCd: string;
  rcptTyCd: 'S' | 'R';
  pmtTyCd: string;
  salesSttsCd: string;
  cfmDt: string;
  salesDt: string;
  stockRlsDt: string | null;
  cnclReqDt: null;
  cnclDt: null;
  rfdDt: string | null;
  rfdRsnCd: string | null;
  totItemCnt: number;
  totTaxblAmt: number;
  totTaxAmt: number;
  totAmt: number;
  prchrAcptcYn: 'N';
  remark: string | null;
  receipt: {
    custTin: string | null;
    custMblNo: string | null;
    rcptPbctDt: string;
    trdeNm: string | null;
    adrs: string | null;
    topMsg: string | null;
    btmMsg: string | null;
    prchrAcptcYn: 'N';
  };
  itemList: SaleItem[];
}

export interface ItemSaveReq extends Registrar {
  itemCd: string;
  itemClsCd: string;
  itemTyCd: string;
  itemNm: string;
  itemStdNm: string | null;
  orgnNatCd: string;
  pkgUnitCd: string;
  qtyUnitCd: string;
  taxTyCd: TaxType;
  btchNo: null;
  bcd: null;
  dftPrc: number;
  addInfo: null;
  sftyQty: null;
  isrcAplcbYn: 'N';
  useYn: 'Y';
}

export interface StockItem {
  itemSeq: number;
  itemClsCd: string;
  itemCd: string;
  itemNm: string;
  bcd: null;
  pkgUnitCd: string;
  pkg: number;
  qtyUnitCd: string;
  qty: number;
  itemExprDt: null;
  prc: number;
  splyAmt: number;
  totDcAmt: number;
  taxblAmt: number;
  taxTyCd: TaxType;
  taxAmt: number;
  totAmt: number;
}

export interface StockIoSaveReq extends Registrar {
  sarNo: number;
  orgSarNo: number;
  regTyCd: string;
  custTin: string | null;
  custNm: string | null;
  custBhfId: null;
  sarTyCd: string;
  ocrnDt: string;
  totItemCnt: number;
  totTaxblAmt: number;
  totTaxAmt: number;
  totAmt: number;
  remark: string | null;
  itemList: StockItem[];
}

export interface StockMasterSaveReq extends Registrar {
  itemCd: string;
  rsdQty: number;
}

/** What a sale or credit note says to KRA, from the invoice as stored. */
export interface SaleDocument {
  number: number;
  kind: 'S' | 'R';
  /** The sale a credit note reverses (its invoice number); 0 for a sale. */
  originalNumber: number | null;
  customerName: string;
  customerPin: string | null;
  customerPhone: string | null;
  paymentType: PaymentTypeCode | string;
  reasonCode: CreditNoteReason | string | null;
  taxType: TaxType;
  lines: readonly InvoiceLine[];
  issuedAt: Date;
  itemClass: string;
}

/** Our own number for an invoice, as KRA stores it beside its own (`trdInvcNo`) and documents print it. */
export function traderInvoiceNo(kind: 'S' | 'R', number: number): string {
  return `${kind === 'R' ? 'CN' : 'INV'}-${number}`;
}

function itemsOf(doc: Pick<SaleDocument, 'lines' | 'taxType' | 'itemClass'>): SaleItem[] {
  const rate = TAX_RATES[doc.taxType];
  return doc.lines.map((l, i) => {
    const item = SAND_ITEMS[l.sandType as SandType];
    const amount = fromCents(l.amountCents);
    return {
      itemSeq: i + 1,
      itemCd: item.itemCd,
      itemClsCd: doc.itemClass,
      itemNm: item.itemNm,
      pkgUnitCd: PKG_UNIT_BULK,
      pkg: l.tonnes,
      qtyUnitCd: QTY_UNIT_TONNE,
      qty: l.tonnes,
      prc: fromCents(l.unitPriceCents),
      splyAmt: amount,
      dcRt: 0,
      dcAmt: 0,
      taxTyCd: doc.taxType,
      taxblAmt: amount,
      taxAmt: fromCents(taxInside(l.amountCents, rate)),
      totAmt: amount,
    };
  });
}

function taxFields(doc: Pick<SaleDocument, 'lines' | 'taxType'>): TaxFields & {
  totTaxblAmt: number;
  totTaxAmt: number;
  totAmt: number;
} {
  const totalCents = doc.lines.reduce((s, l) => s + l.amountCents, 0);
  const taxCents = taxInside(totalCents, TAX_RATES[doc.taxType]);
  const fields = {} as TaxFields;
  for (const t of TAX_TYPES) {
    const mine = t === doc.taxType;
    fields[`taxblAmt${t}`] = mine ? fromCents(totalCents) : 0;
    fields[`taxRt${t}`] = TAX_RATES[t];
    fields[`taxAmt${t}`] = mine ? fromCents(taxCents) : 0;
  }
  return {
    ...fields,
    totTaxblAmt: fromCents(totalCents),
    totTaxAmt: fromCents(taxCents),
    totAmt: fromCents(totalCents),
  };
}

/** `saveTrnsSalesOsdc`'s body for a sale (receipt type S) or a credit note (R, with the original's number). */
export function salePayload(doc: SaleDocument): TrnsSalesSaveWrReq {
  const at = kraDateTime(doc.issuedAt);
  const credit = doc.kind === RECEIPT_TYPE.creditNote;
  return {
    trdInvcNo: traderInvoiceNo(doc.kind, doc.number),
    invcNo: doc.number,
    orgInvcNo: credit ? (doc.originalNumber ?? 0) : 0,
    custTin: doc.customerPin,
    custNm: doc.customerName.slice(0, 60) || null,
    salesTyCd: SALES_TYPE_NORMAL,
    rcptTyCd: doc.kind,
    pmtTyCd: doc.paymentType,
    salesSttsCd: SALES_STATUS_APPROVED,
    cfmDt: at,
    salesDt: kraDate(doc.issuedAt),
    stockRlsDt: credit ? null : at,
    cnclReqDt: null,
    cnclDt: null,
    rfdDt: credit ? at : null,
    rfdRsnCd: credit ? doc.reasonCode : null,
    totItemCnt: doc.lines.length,
    ...taxFields(doc),
    prchrAcptcYn: 'N',
    remark: null,
    ...REGISTRAR,
    receipt: {
      custTin: doc.customerPin,
      custMblNo: doc.customerPhone,
      rcptPbctDt: at,
      trdeNm: null,
      adrs: null,
      topMsg: null,
      btmMsg: null,
      prchrAcptcYn: 'N',
    },
    itemList: itemsOf(doc),
  };
}

/** `saveItem`'s body for one of the two sand items. */
export function itemPayload(
  sandType: SandType,
  itemClass: string,
  taxType: TaxType,
  defaultPriceCents: number,
): ItemSaveReq {
  const item = SAND_ITEMS[sandType];
  return {
    itemCd: item.itemCd,
    itemClsCd: itemClass,
    itemTyCd: ITEM_TYPE_FINISHED,
    itemNm: item.itemNm,
    itemStdNm: null,
    orgnNatCd: ORIGIN_KENYA,
    pkgUnitCd: PKG_UNIT_BULK,
    qtyUnitCd: QTY_UNIT_TONNE,
    taxTyCd: taxType,
    btchNo: null,
    bcd: null,
    dftPrc: fromCents(defaultPriceCents),
    addInfo: null,
    sftyQty: null,
    isrcAplcbYn: 'N',
    useYn: 'Y',
    ...REGISTRAR,
  };
}

/**
 * `insertStockIO`'s body: the tonnes a sale takes out of the yard (11), or a credit note brings back (03).
 * `lines` carry the quantities that move, priced as sold.
 */
export function stockIoPayload(io: {
  sarNo: number;
  originalSarNo: number | null;
  type: string;
  customerName: string;
  customerPin: string | null;
  occurredAt: Date;
  taxType: TaxType;
  itemClass: string;
  lines: readonly InvoiceLine[];
  remark: string;
}): StockIoSaveReq {
  const items = itemsOf({ lines: io.lines, taxType: io.taxType, itemClass: io.itemClass });
  const totals = taxFields({ lines: io.lines, taxType: io.taxType });
  return {
    sarNo: io.sarNo,
    orgSarNo: io.originalSarNo ?? io.sarNo,
    regTyCd: REGISTRATION_AUTOMATIC,
    custTin: io.customerPin,
    custNm: io.customerName.slice(0, 100) || null,
    custBhfId: null,
    sarTyCd: io.type,
    ocrnDt: kraDate(io.occurredAt),
    totItemCnt: items.length,
    totTaxblAmt: totals.totTaxblAmt,
    totTaxAmt: totals.totTaxAmt,
    totAmt: totals.totAmt,
    remark: io.remark,
    ...REGISTRAR,
    itemList: items.map(({ dcRt: _dcRt, dcAmt, ...i }) => ({
      ...i,
      bcd: null,
      itemExprDt: null,
      totDcAmt: dcAmt,
    })),
  };
}

export function stockMasterPayload(sandType: SandType, remainingTonnes: number): StockMasterSaveReq {
  return {
    itemCd: SAND_ITEMS[sandType].itemCd,
    rsdQty: Math.max(0, Math.round(remainingTonnes * 100) / 100),
    ...REGISTRAR,
  };
}
