import { darajaTimestamp, parseDarajaTime } from '../domain/mpesa';
import { SAND_TYPES, type SandType } from '../enums';

/**
 * The KRA eTIMS (OSCU) codes Mchanga uses, as KRA's code definitions name them (paybillke/kra-etims-oscu-docs,
 * "Code Definition"). One table each; the client, the documents and the fake KRA read them from here.
 */

/** API result codes (`resultCd`). */
export const RESULT = {
  ok: '000',
  /** A lookup that found nothing: a valid answer, not a failure. */
  noResult: '001',
  notValidDevice: '901',
  /** `selectInitOsdcInfo` for a device already initialised: its cmcKey was handed out the first time. */
  deviceInstalled: '902',
  requestParameter: '910',
  /** Stock or sales-invoice data before the sales data it belongs to ("received after the sales data"). */
  salesFirst: '922',
  maxViews: '990',
  /** "There is an overlapped Data": KRA already holds this invoice number (or stock number). */
  duplicate: '994',
  unknown: '999',
} as const;

/** KRA's words for each result code (its API Response Code table), for status lines and the fake. */
export const RESULT_MESSAGES: Record<string, string> = {
  '000': 'It is succeeded',
  '001': 'There is no search result',
  '900': 'There is no Header information',
  '901': 'It is not valid device',
  '902': 'This device is installed',
  '903': 'Only OSCU device can be verified.',
  '910': 'Request parameter error',
  '911': 'There is no request full text',
  '912': 'There is a request Method error',
  '921': 'Sales or sales invoice data which is declared cannot be received.',
  '922': 'Sales invoice data can be received after receiving the sales data.',
  '990': 'The maximum number of views are exceeded',
  '991': 'There is an error during registration',
  '992': 'There is an error during modification',
  '993': 'There is an error during deletion',
  '994': 'There is an overlapped Data',
  '995': 'There is no downloaded file',
  '999': 'There is an unknown error. Please ask the administrator',
};

/** Codes worth trying again later (KRA busy or broken), as opposed to a refusal of what was sent. */
export const TRANSIENT_RESULTS: readonly string[] = [RESULT.maxViews, RESULT.unknown, RESULT.salesFirst];

/** Sales receipt types: a sale, or a credit note after a sale. */
export const RECEIPT_TYPE = { sale: 'S', creditNote: 'R' } as const;
/** Transaction type: normal (not a copy, proforma or training receipt). */
export const SALES_TYPE_NORMAL = 'N';
/** Transaction progress: approved. */
export const SALES_STATUS_APPROVED = '02';

/**
 * Payment methods: 06 "any transaction using mobile money system" for M-Pesa; a bank payment is 07
 * (other), because KRA's only bank code, 04, means a cheque; 02 (credit) is a sale on account terms
 * (issue 24's invoices per delivered load).
 */
export const PAYMENT_TYPE = { credit: '02', mobileMoney: '06', other: '07' } as const;
export type PaymentTypeCode = (typeof PAYMENT_TYPE)[keyof typeof PAYMENT_TYPE];

/** Tax types and their rates (%); B (16 % VAT) for a VAT-registered business, D (non-VAT) otherwise. */
export const TAX_RATES = { A: 0, B: 16, C: 0, D: 0, E: 8 } as const;
export type TaxType = keyof typeof TAX_RATES;
export const TAX_TYPES = Object.keys(TAX_RATES) as TaxType[];
export const taxTypeFor = (vatRegistered: boolean): TaxType => (vatRegistered ? 'B' : 'D');

/** Credit note reasons (`rfdRsnCd`). */
export const CREDIT_NOTE_REASONS = ['01', '02', '03', '04', '05', '06'] as const;
export type CreditNoteReason = (typeof CREDIT_NOTE_REASONS)[number];
export const CREDIT_NOTE_REASON_NAMES: Record<CreditNoteReason, string> = {
  '01': 'Missing Quantity',
  '02': 'Missing data',
  '03': 'Damaged',
  '04': 'Wasted',
  '05': 'Raw Material Shortage',
  '06': 'Refund',
};

/** Stock in/out types: a sale goes out (11); sand credited before it was delivered comes back (03). */
export const STOCK_IO = { sale: '11', returnIn: '03' } as const;
/** Registration type of stock movements: automatic (made by the system, not typed by a person). */
export const REGISTRATION_AUTOMATIC = 'A';

/** Quantity unit tonne (metric ton), packaging "bulk, solid, granular particles", origin Kenya. */
export const QTY_UNIT_TONNE = 'TNE';
export const PKG_UNIT_BULK = 'VR';
export const ORIGIN_KENYA = 'KE';
/** Product type 2: a finished product (goods sold as they are, with stock). */
export const ITEM_TYPE_FINISHED = '2';
/** UNSPSC 11111501 "Sand" as KRA's 10-digit item classification. */
export const SAND_ITEM_CLASS = '1111150100';

export { SAND_TYPES, type SandType };

/**
 * The two items Mchanga registers, one per sand type. Their item codes follow KRA's structure: origin,
 * product type, packaging unit, quantity unit, then a 7-digit sequence (KE2VRTNE0000001).
 */
export const SAND_ITEMS: Record<SandType, { itemCd: string; itemNm: string; seq: number }> = {
  coarse: { itemCd: itemCode(1), itemNm: 'Coarse sand (bulk, per tonne)', seq: 1 },
  smooth: { itemCd: itemCode(2), itemNm: 'Smooth sand (bulk, per tonne)', seq: 2 },
};

export function itemCode(seq: number): string {
  return `${ORIGIN_KENYA}${ITEM_TYPE_FINISHED}${PKG_UNIT_BULK}${QTY_UNIT_TONNE}${String(seq).padStart(7, '0')}`;
}

/** KRA's date-times (YYYYMMDDhhmmss) and dates (YYYYMMDD), in Nairobi time like every eTIMS screen. */
export const kraDateTime = (at: Date) => darajaTimestamp(at);
export const kraDate = (at: Date) => darajaTimestamp(at).slice(0, 8);
export const parseKraDateTime = (value: string | null | undefined) => parseDarajaTime(value ?? null);
/** The oldest `lastReqDt` for a first full download of code lists and item classes (KRA's own example). */
export const FIRST_REQUEST_DT = '20180520000000';

/** A KRA PIN: A (person) or P (company), nine digits, a check letter. */
export const KRA_PIN = /^[AP]\d{9}[A-Z]$/;

/** The eTIMS receipt-verification page: the production portal for production OSCU, else the sandbox's. */
export function verificationUrl(baseUrl: string, tin: string, bhfId: string, rcptSign: string): string {
  const production = /^https:\/\/etims-api\.kra\.go\.ke(\/|$)/.test(baseUrl);
  const portal = production ? 'https://etims.kra.go.ke' : 'https://etims-sbx.kra.go.ke';
  return `${portal}/common/link/etims/receipt/indexEtimsReceiptData?Data=${tin}${bhfId}${rcptSign}`;
}

/** Internal data and receipt signature as receipts print them: dashed every four characters. */
export function dashed(value: string): string {
  return value.match(/.{1,4}/g)?.join('-') ?? value;
}
