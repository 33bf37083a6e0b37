/** Where the device keeps its screen language ('en' or 'sw'): a file of its own, so the entry can read it
 * without i18next. */
export const LANGUAGE_KEY = 'mchanga.language';
