import { useState } from 'react';
import { useLandingT } from '../i18n/landing';
import { getSession } from '../session';

/**
 * English / Kiswahili, in the header of every screen: remembered on the device and, when signed in, on
 * the account. The catalogs (i18next) load only when the language is switched or a translated screen opens.
 */
export function LanguageSwitch() {
  // English on the prerendered page; the device's choice right after hydration, and whatever the
  // screens switch to later (the account's language applied at sign-in included).
  const { language } = useLandingT();
  // The choice shows at once, while the catalog loads.
  const [picked, setPicked] = useState<'en' | 'sw' | null>(null);
  async function choose(next: 'en' | 'sw') {
    setPicked(next);
    const { setScreenLanguage } = await import('../i18n');
    await setScreenLanguage(next);
    setPicked(null);
    const session = getSession();
    if (session)
      void fetch('/api/auth/language', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
        body: JSON.stringify({ language: next }),
      }).catch(() => undefined);
  }
  return (
    <label className="language-switch">
      <span className="visually-hidden">Language</span>
      <select value={picked ?? language} onChange={(e) => void choose(e.target.value === 'sw' ? 'sw' : 'en')}>
        <option value="en">English</option>
        <option value="sw">Kiswahili</option>
      </select>
    </label>
  );
}
