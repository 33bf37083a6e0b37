import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { MESSAGES } from '../../../shared/constants';
import { homeForRole } from '../../../shared/roles';
import { deviceChoseLanguage, setScreenLanguage, storedLanguage } from '../../i18n';
import { dismissSessionExpiredNotice, hasSessionExpiredNotice, saveSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, FormStatus, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';

export function LoginPage() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  // Read once: the notice belongs to this visit of /login only.
  const [sessionExpired] = useState(hasSessionExpiredNotice);
  useEffect(() => dismissSessionExpiredNotice, []);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const setLanguage = trpc.auth.setLanguage.useMutation();
  const login = trpc.auth.login.useMutation({
    onSuccess: ({ token, user }) => {
      saveSession(token, user);
      if (deviceChoseLanguage()) {
        // The phone's own language stays (a Kiswahili phone is not switched back to English); the
        // account remembers it for the next device.
        const device = storedLanguage();
        if (user.language !== device) setLanguage.mutate({ language: device });
      } else if (user.language) {
        // A device without a choice of its own takes the account's.
        void setScreenLanguage(user.language);
      }
      // A one-time password from an ADMIN: the password screen first.
      navigate(user.mustChangePassword ? '/account/password' : homeForRole(user.role), { replace: true });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    login.mutate({ email, password });
  }

  return (
    <Page title={t('login.title')}>
      <form className="card narrow" onSubmit={submit} noValidate>
        {/* A refusal after each tap of Sign in, in view and focused (the keyboard covers half the screen). */}
        <FormStatus
          message={
            login.error
              ? {
                  tone: 'error',
                  text: errorMessage(login.error, MESSAGES.invalidLogin),
                  seq: login.submittedAt,
                }
              : null
          }
        />
        {!login.error && sessionExpired ? <Alert tone="info">{MESSAGES.sessionExpired}</Alert> : null}
        <TextField
          label={t('login.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="button-row">
          <button className="button" type="submit" disabled={login.isPending}>
            {login.isPending ? t('login.submitting') : t('login.submit')}
          </button>
          <Link to="/register">{t('login.createAccount')}</Link>
          <Link to="/forgot-password">{t('login.forgot')}</Link>
        </div>
      </form>
    </Page>
  );
}
