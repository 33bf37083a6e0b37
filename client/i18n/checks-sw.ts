import { MAX_TRUCKS_PER_ORDER, MESSAGES, MIN_TRUCKS_PER_ORDER } from '../../shared/constants';
import { LEGAL_WEIGHT_MESSAGES } from '../../shared/domain/legal-weight';
import { ACCOUNT_MESSAGES, MAX_STATEMENT_DAYS, MAX_TERMS_DAYS } from '../../shared/schemas/accounts';
import { ADMIN_ORDER_MESSAGES } from '../../shared/schemas/admin-orders';
import { COMMON_MESSAGES, YEARS } from '../../shared/schemas/common';
import { FLEET_MESSAGES } from '../../shared/schemas/fleet';
import { FUEL_ANOMALY_MESSAGES } from '../../shared/schemas/fuel-anomalies';
import { INVOICE_MESSAGES } from '../../shared/schemas/invoices';
import { MESSAGING_MESSAGES } from '../../shared/schemas/messaging';
import { MONEY_MESSAGES } from '../../shared/schemas/money';
import { ORDER_MESSAGES } from '../../shared/schemas/orders';
import { PAYMENT_MESSAGES } from '../../shared/schemas/payments';
import { STOCK_MESSAGES } from '../../shared/schemas/stock';
import { DRIVER_MESSAGES } from '../../shared/schemas/telemetry';
import { TRACKING_MESSAGES } from '../../shared/schemas/tracking';

/** Each message of a group that is a fixed text (the ones built from figures are left as they are). */
type Fixed<T> = { [K in keyof T as T[K] extends string ? K : never]: string };

/**
 * The Kiswahili of the form checks and refusals the shared schemas and the server write in English
 * (shared/*_MESSAGES, the spec's wording): a Kiswahili screen shows these instead (client/i18n/checks.ts).
 * Each group lists every fixed message of its shared group, so a new message fails typecheck until it is
 * translated here. Loaded only when Kiswahili is chosen.
 */
const auth: Fixed<typeof MESSAGES> = {
  invalidLogin: 'Barua pepe au nenosiri si sahihi.',
  emailTaken: 'Tayari kuna akaunti yenye barua pepe hii. Tafadhali ingia badala yake.',
  passwordTooShort: 'Nenosiri lazima liwe na angalau herufi 8.',
  passwordsDoNotMatch: 'Manenosiri hayalingani.',
  signInRequired: 'Tafadhali ingia ili uendelee.',
  databaseUnavailable:
    'Huduma ina shughuli nyingi au inaanza upya. Tafadhali jaribu tena baada ya muda mfupi.',
  sessionExpired: 'Muda wako wa kuingia umekwisha. Tafadhali ingia tena.',
  forbidden: 'Huna ruhusa ya kuona hili.',
  accountDisabled: 'Akaunti hii imezimwa. Tafadhali wasiliana na msimamizi.',
  driverIdRequired: 'Akaunti ya DEREVA lazima iunganishwe na kitambulisho cha dereva.',
  unknownDriver: 'Hakuna dereva mwenye kitambulisho hicho.',
  currentPasswordWrong: 'Nenosiri lako la sasa si sahihi.',
  mustChangePassword: 'Chagua nenosiri jipya kabla ya kuendelea.',
  resetLinkInvalid:
    'Kiungo hiki cha kubadilisha nenosiri si sahihi, kimekwisha muda au kimeshatumika. Omba kipya.',
  resetOwnPassword: 'Badilisha nenosiri lako mwenyewe kwenye ukurasa wa nenosiri.',
  resetStaffOnly: 'Hapa yanabadilishwa manenosiri ya wafanyakazi tu; wateja hubadilisha yao kwa barua pepe.',
};

const common: Fixed<typeof COMMON_MESSAGES> = {
  dateRange: `Chagua tarehe kati ya ${YEARS.from} na ${YEARS.to}.`,
  instant: 'Weka tarehe na saa sahihi.',
  instantRange: `Weka tarehe na saa kati ya ${YEARS.from} na ${YEARS.to}.`,
  cents: 'Kiasi kwa KES kina desimali mbili tu (senti).',
};

const orders: Fixed<typeof ORDER_MESSAGES> = {
  siteRequired: 'Mahali pa kuleta panahitajika.',
  trucksRange: `Idadi ya malori lazima iwe kati ya ${MIN_TRUCKS_PER_ORDER} na ${MAX_TRUCKS_PER_ORDER}.`,
  sandType: 'Chagua mchanga mkubwa au mchanga laini.',
  distance: 'Umbali lazima uwe idadi ya kilomita iliyo zaidi ya sifuri.',
  dateNeeded: 'Chagua tarehe unayohitaji mchanga.',
  phoneRequired: 'Nambari ya simu inahitajika.',
  portalEmailRequired: 'Barua pepe inahitajika ili kufungua akaunti yako.',
  referenceRequired: 'Nambari ya kumbukumbu ya malipo inahitajika.',
  methodInvalid: 'Chagua mojawapo ya benki zilizoorodheshwa au M-Pesa paybill.',
  accountExists:
    'Tayari kuna akaunti yenye barua pepe hii. Ingia ili uweke agizo lako, au agiza bila akaunti.',
  orderNotFound: 'Agizo halikupatikana.',
  paymentClosed: 'Agizo hili halipokei tena uthibitisho wa malipo.',
};

const fleet: Fixed<typeof FLEET_MESSAGES> = {
  plateRequired: 'Nambari ya usajili inahitajika.',
  capacity: 'Uwezo (tani) lazima uwe zaidi ya sifuri.',
  truckId: 'Weka kitambulisho cha kipekee cha lori.',
  truckIdTaken: 'Tayari kuna lori lenye kitambulisho hiki. Weka kitambulisho cha kipekee cha lori.',
  deviceTaken: 'Kitambulisho hiki cha kifaa tayari kimeunganishwa na lori lingine.',
  driverName: 'Jina la dereva linahitajika.',
  driverId: 'Weka kitambulisho cha kipekee cha dereva.',
  driverIdTaken: 'Tayari kuna dereva mwenye kitambulisho hiki. Weka kitambulisho cha kipekee cha dereva.',
  unknownDriver: 'Hakuna dereva mwenye kitambulisho hicho.',
  unknownTruck: 'Hakuna lori lenye kitambulisho hicho.',
  opsDriverOnly: 'Operesheni wanaweza kubadilisha dereva wa lori tu.',
  axles: 'Ekseli lazima ziwe 2, 3 au 4.',
  tare: 'Uzito tupu (tani) lazima uwe zaidi ya sifuri.',
  tank: 'Ujazo wa tangi (lita) lazima uwe zaidi ya sifuri.',
};

const adminOrders: Fixed<typeof ADMIN_ORDER_MESSAGES> = {
  orderNotFound: 'Agizo halikupatikana.',
  assignmentNotFound: 'Mzigo haukupatikana.',
  truckRequired: 'Chagua lori.',
  driverRequired: 'Chagua dereva.',
  tonnes: 'Tani lazima ziwe zaidi ya sifuri.',
  override: 'Bei kwa lori lazima iwe zaidi ya sifuri.',
  orderClosed: 'Agizo hili limefungwa; halipokei mizigo zaidi.',
  rejectReason: 'Toa sababu ya kukataa malipo.',
  noPayment: 'Hakuna uthibitisho wa malipo wa kukagua. Weka nambari ya kumbukumbu ya malipo ili kuyaandika.',
  paymentReviewed: 'Malipo haya tayari yamekaguliwa.',
  notYourLoad: 'Mzigo huu umepewa dereva mwingine.',
  driverCannotCancel: 'Operesheni pekee wanaweza kughairi mzigo.',
  onlyForward: 'Operesheni pekee wanaweza kurudisha mzigo nyuma.',
  needsProof:
    'Mzigo huwekwa alama ya kufikishwa kwa uthibitisho: picha na nambari ya kupokea ya mteja, au jina la aliyepokea.',
  handDeliveryReason: 'Toa sababu ya kuweka alama ya kufikishwa bila uthibitisho wa kufikisha.',
  photoRequired: 'Piga picha ya mzigo uliofikishwa.',
  codeFormat: 'Nambari ya kupokea ina tarakimu 4.',
  codeOrReceiver: 'Weka nambari ya kupokea ya mteja, au jina la aliyepokea kama hana nambari hiyo.',
  tooManyCodes:
    'Nambari za kupokea zisizo sahihi zimekuwa nyingi kwa agizo hili. Andika jina la aliyepokea pamoja na picha; operesheni wataikagua.',
  reason: 'Sababu',
  unknownCustomer: 'Hakuna mteja mwenye kitambulisho hicho.',
  unpaid: 'Malipo ya agizo hili bado hayajathibitishwa. Ukithibitisha, mzigo unapangwa kabla ya malipo.',
};

const money: Fixed<typeof MONEY_MESSAGES> = {
  costTruck: 'Chagua lori la gharama hii.',
  costType: 'Aina ya gharama inahitajika.',
  amount: 'Weka kiasi kilicho zaidi ya sifuri.',
  description: 'Weka maelezo mafupi.',
  costDuplicate: 'Huenda gharama hii imejirudia.',
  fuelDuplicate: 'Huenda rekodi hii ya mafuta imejirudia.',
  duplicateOfMismatch: 'Rekodi iliyotajwa kuwa ya kwanza hailingani na iliyopo.',
  costNotFound: 'Rekodi ya gharama haikupatikana.',
  linkedCost: 'Gharama hii inatoka kwenye rekodi ya mafuta au akiba iliyopokelewa; ibadilishe huko.',
  fuelTruck: 'Lori linahitajika.',
  fuelCost: 'Gharama yote inahitajika.',
  litres: 'Lita haziwezi kuwa chini ya sifuri.',
  odometer: 'Odomita haiwezi kuwa chini ya sifuri.',
  unknownTruck: 'Hakuna lori lenye kitambulisho au nambari hiyo ya usajili.',
  voidReason: 'Toa sababu kabla ya kubatilisha rekodi iliyojirudia.',
  recordNotFound: 'Rekodi iliyojirudia haikupatikana.',
  alreadyVoided: 'Rekodi hii tayari imebatilishwa.',
  range: 'Chagua kipindi sahihi (siku 366 zaidi).',
};

const stock: Fixed<typeof STOCK_MESSAGES> = {
  truckRequired: 'Chagua lori linaloleta akiba.',
  trucks: 'Weka idadi ya malori yaliyopokelewa (lazima iwe zaidi ya sifuri).',
  costPerTonne: 'Weka gharama kwa tani (KES).',
  note: 'Ongeza maelezo mafupi ya muamala huu.',
  txNotFound: 'Muamala wa akiba haukupatikana.',
};

const driver: Fixed<typeof DRIVER_MESSAGES> = {
  notLinked: 'Wasifu wa dereva haujaunganishwa na akaunti hii.',
  notYours: 'Unaweza kuona dashibodi yako ya dereva tu.',
  pickDriver: 'Chagua dereva kabla ya kuhifadhi mabadiliko ya wasifu.',
  unknownDriver: 'Hakuna dereva mwenye kitambulisho hicho.',
};

const accounts: Fixed<typeof ACCOUNT_MESSAGES> = {
  customerNotFound: 'Mteja hakupatikana.',
  search: 'Andika angalau herufi au tarakimu 2 za jina, barua pepe au simu.',
  signInRequired: 'Ingia ili usome taarifa ya akaunti.',
  customersOnly: 'Mteja pekee ndiye ana taarifa ya akaunti yake.',
  statementRoles: 'Taarifa za akaunti ni za ADMIN na mteja wa akaunti.',
  notACustomer: 'Mteja pekee anaweza kuwa na akaunti ya mkopo.',
  noAccount: 'Mteja huyu hana akaunti ya mkopo.',
  creditLimit: 'Weka kikomo cha mkopo kwa KES (0 au zaidi).',
  termsDays: `Weka muda wa kulipa kwa siku, kuanzia 0 hadi ${MAX_TERMS_DAYS}.`,
  from: 'Chagua siku ya kwanza ya taarifa.',
  to: 'Chagua siku ya mwisho ya taarifa.',
  period: 'Taarifa inaisha kabla ya kuanza.',
  periodTooLong: `Taarifa moja ni ya siku ${MAX_STATEMENT_DAYS} zaidi.`,
  overrideReasonRequired: 'Toa sababu ya kupanga mzigo zaidi ya kikomo cha mkopo.',
  paymentNotFound: 'Malipo hayakupatikana.',
  reversedAlready: 'Malipo haya tayari yamerudishwa.',
  reverseReasonRequired: 'Toa sababu ya kurudisha malipo.',
  amount: 'Weka kiasi kilichopokelewa kwa KES.',
  reference: 'Weka nambari ya kumbukumbu ya benki au M-Pesa.',
  referenceUsed: 'Nambari hii ya kumbukumbu tayari imeandikwa kwenye akaunti hii.',
  invoiceNotFound: 'Ankara haikupatikana kwenye akaunti hii.',
};

const payments: Fixed<typeof PAYMENT_MESSAGES> = {
  receiptUsed:
    'Risiti hii ya M-Pesa tayari imeandikwa kwa malipo mengine. Angalia nambari ya kumbukumbu, au piga simu kwa usambazaji.',
  receiptUnmatched:
    'Risiti hii ya M-Pesa iko kwenye malipo ya M-Pesa yasiyolinganishwa: ilinganishe na agizo hili huko.',
  onTermsNeedsAmount:
    'Agizo hili liko kwenye akaunti ya mkopo: andika malipo kwenye akaunti ya mteja pamoja na kiasi kilichopokelewa.',
};

const tracking: Fixed<typeof TRACKING_MESSAGES> = {
  notFound: 'Kiungo cha ufuatiliaji hakikupatikana.',
  orderNotFound: 'Agizo halikupatikana.',
  siteRequired: 'Weka pini kwenye eneo, au bandika mahali ulipotuma kutoka programu yako ya ramani.',
  siteUnreadable:
    'Hatuwezi kusoma mahali hapo. Bandika kiungo ulichotuma kutoka Google Maps au Apple Maps, kiungo cha geo:, au nambari za mahali.',
  shortLinkFailed:
    'Kiungo hicho kifupi hakikufunguka. Kifungue kwenye programu yako ya ramani na utume nambari za mahali, au weka pini.',
  outsideKenya: 'Weka eneo ndani ya Kenya: mahali hapo ni nje ya eneo tunaloletea.',
  siteClosed: 'Agizo hili limefikishwa au limeghairiwa; eneo lake haliwezi kubadilika tena.',
};

const messaging: Fixed<typeof MESSAGING_MESSAGES> = {
  conversationNotFound: 'Mazungumzo hayakupatikana.',
  orderNotFound: 'Agizo halikupatikana.',
  replyRequired: 'Andika jibu.',
  windowClosed:
    'Dirisha la saa 24 la WhatsApp la mteja limefungwa na SMS haijawekwa: sasa ni violezo vilivyoidhinishwa tu vinavyoweza kumfikia.',
  optedOut: 'Mteja amejiondoa kwenye ujumbe (STOP).',
};

const invoices: Fixed<typeof INVOICE_MESSAGES> = {
  orderNotFound: 'Agizo halikupatikana.',
  invoiceNotFound: 'Ankara haikupatikana.',
  notPaid: 'Agizo hili bado halina risiti: hutolewa agizo likishalipwa lote.',
  nothingLeft: 'Mauzo haya tayari yamerudishiwa yote.',
  reasonRequired: 'Chagua sababu ya hati ya kurudisha.',
  pin: 'Weka KRA PIN kama ilivyo kwenye cheti: A au P, tarakimu 9, herufi moja (P051234567X).',
  amount: 'Weka kiasi kilicho zaidi ya sifuri.',
  creditFailed: 'Imeshindwa kutoa hati ya kurudisha.',
};

const fuelAnomalies: Fixed<typeof FUEL_ANOMALY_MESSAGES> = {
  notFound: 'Tatizo la mafuta halikupatikana.',
  reasonRequired: 'Toa sababu ya kuondoa tatizo hili.',
  alreadyClosed: 'Tatizo hili tayari limekaguliwa au kuondolwa.',
};

const legalWeight: Fixed<typeof LEGAL_WEIGHT_MESSAGES> = {
  reasonRequired: 'Toa sababu ya kupakia zaidi ya uzito unaoruhusiwa kisheria.',
};

/** Messages written in the schemas themselves (shared/schemas/auth.ts, fleet.ts). */
const inSchemas: Record<string, string> = {
  'Name is required.': 'Jina linahitajika.',
  'Email is required.': 'Barua pepe inahitajika.',
  'Enter a valid email address.': 'Weka barua pepe sahihi.',
};

function pairs<T extends object>(english: T, kiswahili: Fixed<T>): Array<[string, string]> {
  return Object.entries(kiswahili).map(([key, text]) => [
    (english as Record<string, string>)[key]!,
    text as string,
  ]);
}

/** English message, word for word as the schema or server writes it → its Kiswahili. */
export const checksSw: ReadonlyMap<string, string> = new Map([
  ...pairs(MESSAGES, auth),
  ...pairs(COMMON_MESSAGES, common),
  ...pairs(ORDER_MESSAGES, orders),
  ...pairs(FLEET_MESSAGES, fleet),
  ...pairs(ADMIN_ORDER_MESSAGES, adminOrders),
  ...pairs(MONEY_MESSAGES, money),
  ...pairs(STOCK_MESSAGES, stock),
  ...pairs(DRIVER_MESSAGES, driver),
  ...pairs(ACCOUNT_MESSAGES, accounts),
  ...pairs(PAYMENT_MESSAGES, payments),
  ...pairs(TRACKING_MESSAGES, tracking),
  ...pairs(MESSAGING_MESSAGES, messaging),
  ...pairs(INVOICE_MESSAGES, invoices),
  ...pairs(FUEL_ANOMALY_MESSAGES, fuelAnomalies),
  ...pairs(LEGAL_WEIGHT_MESSAGES, legalWeight),
  ...Object.entries(inSchemas),
]);
